// memcpy, memmove and memset for the WebAssembly build, as the bulk-memory instructions
// memory.copy and memory.fill.
//
// Emscripten 3.1.6's C library is built without bulk memory: its memcpy hands every copy of
// 512 bytes or more to JavaScript (emscripten_memcpy_big, HEAPU8.copyWithin), and its memset
// loops in wasm. The library code that is not compiled with our flags (libc++'s std::string,
// whose members are instantiated in the library) calls those. Defined here, they are taken
// instead of the C library's (an archive member is linked only for a symbol still missing).
// This file is compiled with -mbulk-memory, so that the builtins below become the single
// instructions, never a call back to the function being defined.
#include <cstddef>

#if !defined(__wasm_bulk_memory__)
#error "src/web/bulk_memory.cpp must be compiled with -mbulk-memory (see src/web/build.sh)"
#endif

extern "C" {

void* memcpy(void* __restrict dst, void const* __restrict src, std::size_t n) {
    return __builtin_memcpy(dst, src, n);
}

void* memmove(void* dst, void const* src, std::size_t n) { return __builtin_memmove(dst, src, n); }

void* memset(void* dst, int c, std::size_t n) { return __builtin_memset(dst, c, n); }

} // extern "C"
