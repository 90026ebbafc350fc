#ifndef MEMO_CEDITLINE_SHIM_H
#define MEMO_CEDITLINE_SHIM_H

#include <stdio.h>
#include <histedit.h>

#endif
