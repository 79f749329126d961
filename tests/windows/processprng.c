/* A stand-in bcryptprimitives.dll for testing jiang.exe under Wine 8.0 and older, which
 * lack it. Rust's standard library on Windows 10 and later takes its random numbers from
 * ProcessPrng in bcryptprimitives.dll (every Windows 10/11 has it, so the shipped
 * jiang.exe needs nothing); this DLL answers it with advapi32's RtlGenRandom
 * (exported as SystemFunction036). Built and installed into a Wine prefix by
 * tests/windows/wine-prefix.sh; never shipped.
 *
 * ProcessPrng: BOOL WINAPI ProcessPrng(PBYTE pbData, SIZE_T cbData), always TRUE
 * (https://learn.microsoft.com/en-us/windows/win32/seccng/processprng). */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
