#ifndef MEMO_CEDITLINE_SHIM_H
#define MEMO_CEDITLINE_SHIM_H

#include <stdio.h>
#include <histedit.h>

// el_set, el_get and history are variadic, which Swift cannot call: these wrappers fix
// one signature per use.

// The C standard streams are mutable globals to Swift 6; these read them where libedit needs them.
static inline FILE *memo_stdin(void) { return stdin; }
static inline FILE *memo_stdout(void) { return stdout; }
static inline FILE *memo_stderr(void) { return stderr; }

typedef char *(*memo_prompt_function)(EditLine *);
typedef unsigned char (*memo_editor_function)(EditLine *, int);

static inline int memo_el_set_prompt(EditLine *el, memo_prompt_function prompt) {
    return el_set(el, EL_PROMPT, prompt);
}

static inline int memo_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

static inline int memo_el_set_signal(EditLine *el, int handle) {
    return el_set(el, EL_SIGNAL, handle);
}

// While libedit reads a line, the terminal sends Ctrl-C as a character rather than as SIGINT
// (`setty -d -isig`), so it takes its place in the typed input: see LineEditor.
static inline int memo_el_read_interrupt_as_character(EditLine *el) {
    return el_set(el, EL_SETTY, "-d", "-isig", NULL);
}

typedef int (*memo_read_function)(EditLine *, wchar_t *);

// The function libedit reads each typed character with.
static inline int memo_el_set_read_function(EditLine *el, memo_read_function read) {
    return el_set(el, EL_GETCFN, read);
}

// Draws the prompt and the line again from the cursor's place, as if the screen were blank there.
static inline int memo_el_refresh(EditLine *el) {
    return el_set(el, EL_REFRESH);
}

// Where libedit draws: the terminal, or nowhere when the screen already shows the line.
static inline int memo_el_set_output(EditLine *el, FILE *output) {
    return el_set(el, EL_SETFP, 1, output);
}

static inline int memo_el_set_history(EditLine *el, History *history_handle) {
    return el_set(el, EL_HIST, history, history_handle);
}

static inline int memo_el_add_function(EditLine *el, const char *name, const char *help,
                                       memo_editor_function function) {
    return el_set(el, EL_ADDFN, name, help, function);
}

static inline int memo_el_bind(EditLine *el, const char *key, const char *command) {
    return el_set(el, EL_BIND, key, command, NULL);
}

static inline int memo_el_set_client_data(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *memo_el_client_data(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}

static inline int memo_history_set_size(History *h, HistEvent *event, int size) {
    return history(h, event, H_SETSIZE, size);
}

static inline int memo_history_set_unique(History *h, HistEvent *event, int unique) {
    return history(h, event, H_SETUNIQUE, unique);
}

static inline int memo_history_enter(History *h, HistEvent *event, const char *line) {
    return history(h, event, H_ENTER, line);
}

static inline int memo_history_load(History *h, HistEvent *event, const char *path) {
    return history(h, event, H_LOAD, path);
}

static inline int memo_history_save(History *h, HistEvent *event, const char *path) {
    return history(h, event, H_SAVE, path);
}

#endif
