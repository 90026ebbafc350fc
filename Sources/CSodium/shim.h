#ifndef MEMO_CSODIUM_SHIM_H
#define MEMO_CSODIUM_SHIM_H

#include <sodium.h>

#endif
