/* demangle: Itanium C++ mangled kernel names (nvcc's _Z...) made readable for titles — the name and its template arguments. */
#ifndef PTXTUTOR_DEMANGLE_H
#define PTXTUTOR_DEMANGLE_H

#include <stddef.h>

/* Writes the readable name of a mangled one into out: the (nested) name and
 * its template arguments, without the parameter list, e.g.
 * "_Z15sgemmWarptilingILi64ELi64ELi8EEviiifPKfS1_fPf" -> "sgemmWarptiling<64, 64, 8>",
 * "_ZN2ns4gemmIfEEvPf" -> "ns::gemm<float>". The forms read: _Z and _ZL, a
 * source name or N...E nested names, template arguments I...E made of
 * integer and bool literals (L<type><n>E, n for minus) and builtin or named
 * types (with P K R prefixes). Anything else (an extern "C" name, an unknown
 * form) is copied as it is. Returns 1 when it demangled, 0 when it copied. */
int demangle(const char *mangled, char *out, size_t len);

#endif
