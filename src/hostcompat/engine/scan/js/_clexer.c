/* hostcompat.engine.scan.js._clexer: the JavaScript lexer of lexer.py in C, for speed; optional.
 *
 * The pure-Python lexer is the reference and the fallback: this module gives identical spans and brace indexes
 * (tests/engine/test_clexer.py compares both over the corpus and generated pages). Input is untrusted: every
 * index is bounds-checked, buffers grow with overflow checks, nothing recurses, and the caller's deadline check
 * runs every few tens of thousands of steps.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define KIND_STRING 1
#define KIND_TEMPLATE 2
#define KIND_COMMENT 3
#define KIND_REGEX 4
#define MAX_WORD 10
#define CHECK_EVERY 0xFFFF

/* bit 1: starts a token anywhere ("'`/); bit 2: also inside a template's ${...} ({}) */
static unsigned char SPECIAL[128];

typedef struct {
    Py_ssize_t *starts;
    Py_ssize_t *ends;
    signed char *kinds;
    Py_ssize_t n;
    Py_ssize_t cap;
} Spans;

typedef struct {
    Py_ssize_t *items;
    Py_ssize_t n;
    Py_ssize_t cap;
} Depths;

typedef Depths Positions;

typedef struct {
    const char *data;
    Py_ssize_t n;
    int wide;
} Offsets;

static int grow(void **items, Py_ssize_t *cap, Py_ssize_t need, size_t item)
{
    Py_ssize_t wanted;
    void *bigger;
    if (need <= *cap) {
        return 0;
    }
    wanted = *cap < 64 ? 64 : *cap;
    while (wanted < need) {
        if (wanted > PY_SSIZE_T_MAX / 2) {
            return -1;
        }
        wanted *= 2;
    }
    if ((size_t)wanted > (size_t)PY_SSIZE_T_MAX / item) {
        return -1;
    }
    bigger = PyMem_Realloc(*items, (size_t)wanted * item);
    if (bigger == NULL) {
        return -1;
    }
    *items = bigger;
    *cap = wanted;
    return 0;
}

static int resize(void **items, Py_ssize_t cap, size_t item)
{
    void *bigger = PyMem_Realloc(*items, (size_t)cap * item);
    if (bigger == NULL) {
        return -1;
    }
    *items = bigger;
    return 0;
}

static int spans_push(Spans *sp, Py_ssize_t start, Py_ssize_t end, int kind)
{
    if (sp->n >= sp->cap) {
        Py_ssize_t wanted = sp->cap < 64 ? 64 : sp->cap;
        if (wanted > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(Py_ssize_t)) {
            return -1;
        }
        wanted *= 2;
        if (resize((void **)&sp->starts, wanted, sizeof(Py_ssize_t)) < 0 ||
            resize((void **)&sp->ends, wanted, sizeof(Py_ssize_t)) < 0 ||
            resize((void **)&sp->kinds, wanted, sizeof(signed char)) < 0) {
            return -1;
        }
        sp->cap = wanted;
    }
    sp->starts[sp->n] = start;
    sp->ends[sp->n] = end;
    sp->kinds[sp->n] = (signed char)kind;
    sp->n++;
    return 0;
}

static int depths_push(Depths *d, Py_ssize_t value)
{
    if (grow((void **)&d->items, &d->cap, d->n + 1, sizeof(Py_ssize_t)) < 0) {
        return -1;
    }
    d->items[d->n++] = value;
    return 0;
}

#define positions_push depths_push

static Py_ssize_t offset_at(const Offsets *o, Py_ssize_t k)
{
    if (o->wide) {
        int64_t v;
        memcpy(&v, o->data + k * 8, 8);
        return (Py_ssize_t)v;
    }
    {
        int32_t v;
        memcpy(&v, o->data + k * 4, 4);
        return (Py_ssize_t)v;
    }
}

static int call_check(PyObject *check)
{
    PyObject *result;
    if (check == Py_None) {
        return 0;
    }
    result = PyObject_CallNoArgs(check);
    if (result == NULL) {
        return -1;
    }
    Py_DECREF(result);
    return 0;
}

/* lexer.py's _WHITESPACE */
static int is_blank(Py_UCS4 c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' || c == 0xA0 || c == 0x2028 ||
           c == 0x2029 || c == 0xFEFF;
}

/* lexer.py's _IDENT_CHARS */
static int is_ident(Py_UCS4 c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

static int is_line_end(Py_UCS4 c)
{
    return c == '\r' || c == '\n' || c == 0x2028 || c == 0x2029;
}

/* lexer.py's _WORD_BEFORE_REGEX */
static const char *const REGEX_WORDS[] = {"return", "typeof", "instanceof", "in",   "of",    "new",   "delete",
                                          "void",   "throw",  "case",       "do",   "else",  "yield", "await"};

static int is_regex_word(const Py_UCS4 *word, Py_ssize_t n)
{
    for (size_t w = 0; w < sizeof(REGEX_WORDS) / sizeof(REGEX_WORDS[0]); w++) {
        const char *candidate = REGEX_WORDS[w];
        if ((Py_ssize_t)strlen(candidate) != n) {
            continue;
        }
        {
            Py_ssize_t m = 0;
            while (m < n && word[m] == (Py_UCS4)(unsigned char)candidate[m]) {
                m++;
            }
            if (m == n) {
                return 1;
            }
        }
    }
    return 0;
}

#define CH Py_UCS1
#define SUFFIX _ucs1
#include "_clexer_body.h"
#undef CH
#undef SUFFIX
#define CH Py_UCS2
#define SUFFIX _ucs2
#include "_clexer_body.h"
#undef CH
#undef SUFFIX
#define CH Py_UCS4
#define SUFFIX _ucs4
#include "_clexer_body.h"
#undef CH
#undef SUFFIX

/* The offsets as the bytes of array("i") (wide: array("q")). */
static PyObject *offsets_bytes(const Py_ssize_t *values, Py_ssize_t n, int wide)
{
    Py_ssize_t size = wide ? 8 : 4;
    PyObject *out;
    char *buffer;
    if (n > PY_SSIZE_T_MAX / size) {
        return PyErr_NoMemory();
    }
    out = PyBytes_FromStringAndSize(NULL, n * size);
    if (out == NULL) {
        return NULL;
    }
    buffer = PyBytes_AS_STRING(out);
    for (Py_ssize_t k = 0; k < n; k++) {
        if (wide) {
            int64_t v = (int64_t)values[k];
            memcpy(buffer + k * 8, &v, 8);
        } else {
            int32_t v = (int32_t)values[k];
            memcpy(buffer + k * 4, &v, 4);
        }
    }
    return out;
}

static int check_range(PyObject *source, Py_ssize_t start, Py_ssize_t stop, int wide)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(source);
    if (start < 0 || stop < start || stop > len) {
        PyErr_SetString(PyExc_ValueError, "need 0 <= start <= stop <= len(source)");
        return -1;
    }
    if (!wide && stop >= ((Py_ssize_t)1 << 31) - 1) {
        PyErr_SetString(PyExc_ValueError, "offsets past 2**31 need wide=True");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(lex_doc, "lex(source, start, stop, wide, check) -> (starts, ends, kinds) as array bytes\n\n"
                      "The spans of lexer.lex_js; `check` is called now and then (it may raise to stop).");

static PyObject *clexer_lex(PyObject *module, PyObject *args)
{
    PyObject *source, *check, *result = NULL;
    Py_ssize_t start, stop;
    int wide, status;
    Spans sp = {NULL, NULL, NULL, 0, 0};
    (void)module;
    if (!PyArg_ParseTuple(args, "UnnpO:lex", &source, &start, &stop, &wide, &check)) {
        return NULL;
    }
    if (PyUnicode_READY(source) < 0 || check_range(source, start, stop, wide) < 0) {
        return NULL;
    }
    switch (PyUnicode_KIND(source)) {
    case PyUnicode_1BYTE_KIND:
        status = lex_ucs1(PyUnicode_1BYTE_DATA(source), PyUnicode_GET_LENGTH(source), start, stop, &sp, check);
        break;
    case PyUnicode_2BYTE_KIND:
        status = lex_ucs2(PyUnicode_2BYTE_DATA(source), PyUnicode_GET_LENGTH(source), start, stop, &sp, check);
        break;
    default:
        status = lex_ucs4(PyUnicode_4BYTE_DATA(source), PyUnicode_GET_LENGTH(source), start, stop, &sp, check);
        break;
    }
    if (status == 0) {
        PyObject *starts = offsets_bytes(sp.starts, sp.n, wide);
        PyObject *ends = starts ? offsets_bytes(sp.ends, sp.n, wide) : NULL;
        PyObject *kinds = ends ? PyBytes_FromStringAndSize((const char *)sp.kinds, sp.n) : NULL;
        if (kinds != NULL) {
            result = PyTuple_Pack(3, starts, ends, kinds);
        }
        Py_XDECREF(starts);
        Py_XDECREF(ends);
        Py_XDECREF(kinds);
    }
    PyMem_Free(sp.starts);
    PyMem_Free(sp.ends);
    PyMem_Free(sp.kinds);
    return result;
}

static int offsets_from(Py_buffer *view, int wide, Offsets *out)
{
    Py_ssize_t size = wide ? 8 : 4;
    if (view->len % size != 0) {
        PyErr_SetString(PyExc_ValueError, "offset buffer length is not a multiple of the item size");
        return -1;
    }
    out->data = (const char *)view->buf;
    out->n = view->len / size;
    out->wide = wide;
    return 0;
}

PyDoc_STRVAR(index_braces_doc, "index_braces(source, start, stop, starts, ends, wide, check) -> (positions, mates, "
                               "parents) as array bytes\n\nThe brace index of lexer._index_braces.");

static PyObject *clexer_index_braces(PyObject *module, PyObject *args)
{
    PyObject *source, *check, *result = NULL;
    Py_ssize_t start, stop;
    int wide, status;
    Py_buffer starts_view, ends_view;
    Offsets starts, ends;
    Positions found = {NULL, 0, 0};
    Py_ssize_t *mates = NULL, *parents = NULL, *stack = NULL;
    Py_ssize_t depth = 0;
    (void)module;
    if (!PyArg_ParseTuple(args, "Unny*y*pO:index_braces", &source, &start, &stop, &starts_view, &ends_view, &wide,
                          &check)) {
        return NULL;
    }
    if (PyUnicode_READY(source) < 0 || check_range(source, start, stop, wide) < 0 ||
        offsets_from(&starts_view, wide, &starts) < 0 || offsets_from(&ends_view, wide, &ends) < 0) {
        goto done;
    }
    if (starts.n != ends.n) {
        PyErr_SetString(PyExc_ValueError, "starts and ends differ in length");
        goto done;
    }
    switch (PyUnicode_KIND(source)) {
    case PyUnicode_1BYTE_KIND:
        status = braces_ucs1(PyUnicode_1BYTE_DATA(source), start, stop, &starts, &ends, &found, check);
        break;
    case PyUnicode_2BYTE_KIND:
        status = braces_ucs2(PyUnicode_2BYTE_DATA(source), start, stop, &starts, &ends, &found, check);
        break;
    default:
        status = braces_ucs4(PyUnicode_4BYTE_DATA(source), start, stop, &starts, &ends, &found, check);
        break;
    }
    if (status < 0) {
        goto done;
    }
    {
        size_t count = found.n > 0 ? (size_t)found.n : 1;
        mates = PyMem_Malloc(count * sizeof(Py_ssize_t));
        parents = PyMem_Malloc(count * sizeof(Py_ssize_t));
        stack = PyMem_Malloc(count * sizeof(Py_ssize_t));
    }
    if (mates == NULL || parents == NULL || stack == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t index = 0; index < found.n; index++) {
        mates[index] = -1;
        parents[index] = -1;
    }
    for (Py_ssize_t index = 0; index < found.n; index++) {
        if (PyUnicode_READ_CHAR(source, found.items[index]) == '{') {
            parents[index] = depth > 0 ? stack[depth - 1] : -1;
            stack[depth++] = index;
        } else if (depth > 0) {
            Py_ssize_t opener = stack[--depth];
            mates[opener] = index;
            mates[index] = opener;
        }
    }
    {
        PyObject *positions = offsets_bytes(found.items, found.n, wide);
        PyObject *mate_bytes = positions ? offsets_bytes(mates, found.n, wide) : NULL;
        PyObject *parent_bytes = mate_bytes ? offsets_bytes(parents, found.n, wide) : NULL;
        if (parent_bytes != NULL) {
            result = PyTuple_Pack(3, positions, mate_bytes, parent_bytes);
        }
        Py_XDECREF(positions);
        Py_XDECREF(mate_bytes);
        Py_XDECREF(parent_bytes);
    }
done:
    PyMem_Free(found.items);
    PyMem_Free(mates);
    PyMem_Free(parents);
    PyMem_Free(stack);
    PyBuffer_Release(&starts_view);
    PyBuffer_Release(&ends_view);
    return result;
}

PyDoc_STRVAR(ascii_fold_doc, "ascii_fold(source, start, stop) -> bytes\n\n"
                             "source[start:stop] one byte per character: ASCII as itself, anything else as 0x80, so "
                             "that byte offsets of ASCII literals are character offsets.");

static PyObject *clexer_ascii_fold(PyObject *module, PyObject *args)
{
    PyObject *source, *out;
    Py_ssize_t start, stop;
    char *buffer;
    int kind;
    const void *data;
    (void)module;
    if (!PyArg_ParseTuple(args, "Unn:ascii_fold", &source, &start, &stop)) {
        return NULL;
    }
    if (PyUnicode_READY(source) < 0 || check_range(source, start, stop, 1) < 0) {
        return NULL;
    }
    out = PyBytes_FromStringAndSize(NULL, stop - start);
    if (out == NULL) {
        return NULL;
    }
    buffer = PyBytes_AS_STRING(out);
    kind = PyUnicode_KIND(source);
    data = PyUnicode_DATA(source);
    if (PyUnicode_IS_ASCII(source)) {
        memcpy(buffer, (const char *)data + start, (size_t)(stop - start));
    } else if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *s = (const Py_UCS1 *)data;
        for (Py_ssize_t i = start; i < stop; i++) {
            buffer[i - start] = (char)(s[i] < 128 ? s[i] : 0x80);
        }
    } else if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *s = (const Py_UCS2 *)data;
        for (Py_ssize_t i = start; i < stop; i++) {
            buffer[i - start] = (char)(s[i] < 128 ? s[i] : 0x80);
        }
    } else {
        const Py_UCS4 *s = (const Py_UCS4 *)data;
        for (Py_ssize_t i = start; i < stop; i++) {
            buffer[i - start] = (char)(s[i] < 128 ? s[i] : 0x80);
        }
    }
    return out;
}

static PyMethodDef clexer_methods[] = {
    {"ascii_fold", clexer_ascii_fold, METH_VARARGS, ascii_fold_doc},
    {"lex", clexer_lex, METH_VARARGS, lex_doc},
    {"index_braces", clexer_index_braces, METH_VARARGS, index_braces_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef clexer_module = {
    PyModuleDef_HEAD_INIT, "_clexer", "The scanner's JavaScript lexer in C (see lexer.py).", -1, clexer_methods,
    NULL,                  NULL,      NULL,                                                 NULL,
};

PyMODINIT_FUNC PyInit__clexer(void)
{
    SPECIAL['"'] = SPECIAL['\''] = SPECIAL['`'] = SPECIAL['/'] = 1;
    SPECIAL['{'] = SPECIAL['}'] = 2;
    return PyModule_Create(&clexer_module);
}
