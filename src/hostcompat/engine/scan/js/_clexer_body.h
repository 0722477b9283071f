/* The lexer's body, included once per string width by _clexer.c with CH (the code unit type) and SUFFIX set.
 *
 * Each function mirrors its pure-Python twin in lexer.py step for step (the comments name it); the two must give
 * identical spans and brace indexes. Every index is checked against the stretch or the string before it is read.
 */

#define CL_CAT2(a, b) a##b
#define CL_CAT(a, b) CL_CAT2(a, b)
#define CL_FN(name) CL_CAT(name, SUFFIX)

/* _regex_allowed: whether a `/` at i starts a regex literal, judged by the code just before it. */
static int CL_FN(regex_allowed)(const CH *s, Py_ssize_t len, Py_ssize_t i, const Spans *sp)
{
    Py_ssize_t j = i - 1;
    Py_UCS4 c;
    while (j >= 0) {
        if (sp->n > 0 && sp->ends[sp->n - 1] == j + 1 && sp->starts[sp->n - 1] <= j) {
            Py_ssize_t a = sp->starts[sp->n - 1];
            if (a >= 0 && a + 1 < len && s[a] == '/' && (s[a + 1] == '/' || s[a + 1] == '*')) {
                j = a - 1;
                continue;
            }
            return 0;
        }
        if (is_blank((Py_UCS4)s[j])) {
            j--;
            continue;
        }
        break;
    }
    if (j < 0) {
        return 1;
    }
    c = (Py_UCS4)s[j];
    if (c == ')' || c == ']') {
        return 0;
    }
    if (is_ident(c)) {
        Py_ssize_t k = j;
        Py_UCS4 word[MAX_WORD];
        Py_ssize_t n = 0;
        while (k >= 0 && is_ident((Py_UCS4)s[k])) {
            k--;
        }
        if (j - k > MAX_WORD) {
            return 0;
        }
        for (Py_ssize_t m = k + 1; m <= j; m++) {
            word[n++] = (Py_UCS4)s[m];
        }
        return is_regex_word(word, n);
    }
    return 1;
}

/* _REGEX_BODY.match(source, i, stop): the end of a regex literal at i, or -1. */
static Py_ssize_t CL_FN(regex_body)(const CH *s, Py_ssize_t i, Py_ssize_t stop)
{
    Py_ssize_t k = i + 1;
    Py_ssize_t items = 0;
    while (k < stop) {
        Py_UCS4 c = (Py_UCS4)s[k];
        if (c == '/') {
            break;
        }
        if (c == '\r' || c == '\n') {
            return -1;
        }
        if (c == '\\') {
            if (k + 1 >= stop || s[k + 1] == '\r' || s[k + 1] == '\n') {
                return -1;
            }
            k += 2;
        } else if (c == '[') {
            Py_ssize_t m = k + 1;
            for (;;) {
                Py_UCS4 d;
                if (m >= stop) {
                    return -1;
                }
                d = (Py_UCS4)s[m];
                if (d == ']') {
                    break;
                }
                if (d == '\r' || d == '\n') {
                    return -1;
                }
                if (d == '\\') {
                    if (m + 1 >= stop || s[m + 1] == '\r' || s[m + 1] == '\n') {
                        return -1;
                    }
                    m += 2;
                } else {
                    m++;
                }
            }
            k = m + 1;
        } else {
            k++;
        }
        items++;
    }
    if (k >= stop || items == 0) {
        return -1;
    }
    k++; /* the closing slash */
    while (k < stop && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z'))) {
        k++;
    }
    return k;
}

/* _template_text: record template text from span_start; return where lexing resumes (-1 on no memory). */
static Py_ssize_t CL_FN(template_text)(
    const CH *s, Py_ssize_t span_start, Py_ssize_t text_start, Py_ssize_t stop, Spans *sp, Depths *depths)
{
    Py_ssize_t k = text_start;
    while (k < stop) {
        Py_UCS4 c = (Py_UCS4)s[k];
        if (c == '`') {
            break;
        }
        if (c == '\\') {
            if (k + 1 < stop) {
                k += 2;
                continue;
            }
            break;
        }
        if (c == '$' && k + 1 < stop && s[k + 1] == '{') {
            break;
        }
        k++;
    }
    if (k < stop && s[k] == '`') {
        return spans_push(sp, span_start, k + 1, KIND_TEMPLATE) < 0 ? -1 : k + 1;
    }
    if (k + 1 < stop && s[k] == '$') {
        if (spans_push(sp, span_start, k + 2, KIND_TEMPLATE) < 0 || depths_push(depths, 0) < 0) {
            return -1;
        }
        return k + 2;
    }
    return spans_push(sp, span_start, stop, KIND_TEMPLATE) < 0 ? -1 : stop;
}

/* _slash: a comment, a regex literal or a division at i; return where lexing resumes (-1 on no memory). */
static Py_ssize_t CL_FN(slash)(const CH *s, Py_ssize_t len, Py_ssize_t i, Py_ssize_t stop, Spans *sp)
{
    Py_UCS4 following = i + 1 < stop ? (Py_UCS4)s[i + 1] : 0;
    if (following == '/') {
        Py_ssize_t j = i;
        while (j < stop && !is_line_end((Py_UCS4)s[j])) {
            j++;
        }
        return spans_push(sp, i, j, KIND_COMMENT) < 0 ? -1 : j;
    }
    if (following == '*') {
        Py_ssize_t j = stop;
        for (Py_ssize_t k = i + 2; k + 1 < stop; k++) {
            if (s[k] == '*' && s[k + 1] == '/') {
                j = k + 2;
                break;
            }
        }
        return spans_push(sp, i, j, KIND_COMMENT) < 0 ? -1 : j;
    }
    if (CL_FN(regex_allowed)(s, len, i, sp)) {
        Py_ssize_t end = CL_FN(regex_body)(s, i, stop);
        if (end >= 0) {
            return spans_push(sp, i, end, KIND_REGEX) < 0 ? -1 : end;
        }
    }
    return i + 1;
}

/* lex_js: the literal and comment spans of s[start:stop]; 0, or -1 with an exception set. */
static int CL_FN(lex)(const CH *s, Py_ssize_t len, Py_ssize_t start, Py_ssize_t stop, Spans *sp, PyObject *check)
{
    Depths depths = {NULL, 0, 0};
    Py_ssize_t pos = start;
    size_t steps = 0;
    while (pos < stop) {
        Py_ssize_t i = pos;
        Py_UCS4 c = 0;
        if ((++steps & CHECK_EVERY) == 0 && call_check(check) < 0) {
            goto fail;
        }
        if (depths.n > 0) {
            for (; i < stop; i++) {
                c = (Py_UCS4)s[i];
                if (c < 128 && (SPECIAL[c] & 3)) {
                    break;
                }
            }
        } else {
            for (; i < stop; i++) {
                c = (Py_UCS4)s[i];
                if (c < 128 && (SPECIAL[c] & 1)) {
                    break;
                }
            }
        }
        if (i >= stop) {
            break;
        }
        if (c == '"' || c == '\'') {
            Py_ssize_t j = i + 1;
            while (j < stop) {
                Py_UCS4 d = (Py_UCS4)s[j];
                if (d == c || d == '\r' || d == '\n') {
                    break;
                }
                if (d == '\\') {
                    if (j + 1 >= stop) {
                        break;
                    }
                    j += 2;
                    continue;
                }
                j++;
            }
            if (j < stop && (Py_UCS4)s[j] == c) {
                j++;
            }
            if (spans_push(sp, i, j, KIND_STRING) < 0) {
                goto fail;
            }
            pos = j;
        } else if (c == '`') {
            pos = CL_FN(template_text)(s, i, i + 1, stop, sp, &depths);
        } else if (c == '{') {
            depths.items[depths.n - 1] += 1;
            pos = i + 1;
        } else if (c == '}') {
            if (depths.items[depths.n - 1] == 0) {
                depths.n--;
                pos = CL_FN(template_text)(s, i, i + 1, stop, sp, &depths);
            } else {
                depths.items[depths.n - 1] -= 1;
                pos = i + 1;
            }
        } else {
            pos = CL_FN(slash)(s, len, i, stop, sp);
        }
        if (pos < 0) {
            goto fail;
        }
    }
    PyMem_Free(depths.items);
    return 0;
fail:
    PyMem_Free(depths.items);
    if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    return -1;
}

/* _index_braces, first half: the positions of the braces of s[start:stop] outside the spans. */
static int CL_FN(braces)(
    const CH *s, Py_ssize_t start, Py_ssize_t stop, const Offsets *starts, const Offsets *ends, Positions *out,
    PyObject *check)
{
    Py_ssize_t k = 0;
    Py_ssize_t count = starts->n;
    size_t steps = 0;
    for (Py_ssize_t i = start; i < stop; i++) {
        Py_UCS4 c = (Py_UCS4)s[i];
        if (c != '{' && c != '}') {
            continue;
        }
        if ((++steps & CHECK_EVERY) == 0 && call_check(check) < 0) {
            return -1;
        }
        while (k < count && offset_at(ends, k) <= i) {
            k++;
        }
        if (k < count && offset_at(starts, k) <= i) {
            continue;
        }
        if (positions_push(out, i) < 0) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

#undef CL_FN
#undef CL_CAT
#undef CL_CAT2
