/* Wine 8 (Debian 12) has no bcryptprimitives.dll, whose ProcessPrng the Rust standard library
 * takes its randomness from on Windows; this stand-in, built with mingw-w64 into the Wine prefix
 * by .ci/run, asks Wine's bcrypt for the same system random bytes. */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    return BCryptGenRandom(NULL, data, (ULONG)len, BCRYPT_USE_SYSTEM_PREFERRED_RNG) == 0;
}
