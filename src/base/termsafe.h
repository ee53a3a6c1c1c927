/* termsafe: text made safe to show on a terminal — every byte a terminal would act on is written visibly as \xHH, and a stream that does it to all it carries. */
#ifndef PTXTUTOR_TERMSAFE_H
#define PTXTUTOR_TERMSAFE_H

#include <stddef.h>
#include <stdio.h>

#include "base/util.h"

/* The length (1..4) of the valid UTF-8 sequence at s, of which n bytes are
 * there; 0 when it is not one (a stray continuation byte, an overlong form, a
 * surrogate, past U+10FFFF, a byte no sequence starts with); -1 when the n
 * bytes are the start of a sequence cut short. On a NUL-terminated string
 * n = 4 is safe: the NUL ends a sequence as not valid. */
int termsafe_utf8_len(const char *s, size_t n);

/* Appends s[0..n) to out with each byte a terminal acts on written as the
 * four characters \xHH: the C0 controls but \n and \t (ESC, BEL, \r, \b ...),
 * DEL, the C1 controls U+0080..U+009F (both bytes of their UTF-8, C2 80..C2 9F)
 * and every byte that is not part of valid UTF-8 (a raw 0x9b among them).
 * Valid UTF-8 otherwise passes unchanged (→, ³, box drawing, ✓). With more to
 * come (last == 0) a sequence cut short at the end is left for the next
 * call. Returns the number of bytes of s used. */
size_t termsafe_escape(strbuf *out, const char *s, size_t n, int last);

/* A stream whose bytes go through termsafe_escape to the descriptor fd (a
 * sequence split across two writes is joined first), buffered as mode
 * (_IOFBF, _IOLBF or _IONBF). It lasts as long as the process; at exit
 * whatever it holds is written out. NULL when the C library cannot make one. */
FILE *termsafe_open(int fd, int mode);

/* Flushes every termsafe stream and writes out a sequence cut short at its
 * end (escaped: nothing will complete it). Returns 0, or -1 with errno when
 * a write failed. */
int termsafe_flush(void);

/* A progress line on stderr, drawn over in place: \r, the message (escaped),
 * ESC[K; fmt NULL clears it. The one way past the filter, for the escape
 * sequences the program itself means. Callers draw one only on a terminal. */
void termsafe_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
