//! What the operating system is asked for on behalf of the transposition table: huge
//! pages for its buckets, and how much memory is still available for sizing it.
//!
//! The table is probed at random addresses on every node, so with 4 KiB pages nearly
//! every probe misses the TLB; on 2 MiB pages the bench runs about 12 % faster (see
//! `docs/MEASUREMENTS.md`, "The Windows build under Wine").

/// Asks the kernel to back `len` bytes at `addr` (2 MiB-aligned, inside one allocation of
/// this process) with transparent huge pages. A hint only; failure changes nothing.
///
/// - Linux: `madvise(MADV_HUGEPAGE)`, which matters where the system's policy is
///   `madvise` (the common default).
/// - Windows under Wine on a Linux host: the same request to the Linux kernel, since
///   Wine's memory is plain Linux memory and Wine passes no page-size hint on; a Windows
///   GUI run under Wine is how many Linux players use their engines. This assumes that
///   Wine lets a system call made by Windows code reach the kernel, as the Wine tested
///   here does (Debian's 8.0, `tests/windows/huge-pages.sh`); a Wine build that
///   intercepts such calls (syscall user dispatch) is not covered.
/// - Elsewhere (Windows itself, where large pages need the "Lock pages in memory"
///   privilege, macOS, WebAssembly): nothing.
pub fn advise_huge_pages(addr: *const u8, len: usize) {
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    linux_madvise_hugepage(addr, len);
    #[cfg(all(windows, target_arch = "x86_64"))]
    if wine::host_is_linux() {
        linux_madvise_hugepage(addr, len);
    }
    #[cfg(not(all(any(target_os = "linux", windows), target_arch = "x86_64")))]
    let _ = (addr, len);
}

/// The Linux system call `madvise(addr, len, MADV_HUGEPAGE)`, made directly: the engine
/// links no C library functions for it, and under Wine no Windows function reaches it.
#[cfg(all(any(target_os = "linux", windows), target_arch = "x86_64"))]
fn linux_madvise_hugepage(addr: *const u8, len: usize) {
    const SYS_MADVISE: usize = 28;
    const MADV_HUGEPAGE: usize = 14;
    let ret: isize;
    // SAFETY: only reached on a Linux kernel (natively, or under Wine on a Linux host).
    // madvise(2) with MADV_HUGEPAGE only changes how the kernel backs pages of this
    // process's own mapping (`addr` is 2 MiB-aligned and `len` bytes lie inside our
    // allocation); it reads and writes no user memory. The syscall clobbers rcx and r11.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") SYS_MADVISE => ret,
            in("rdi") addr,
            in("rsi") len,
            in("rdx") MADV_HUGEPAGE,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    if ret != 0 {
        log::debug!("madvise(MADV_HUGEPAGE) returned {ret}");
    }
}

#[cfg(all(windows, target_arch = "x86_64"))]
mod wine {
    use std::ffi::{c_char, c_void, CStr};

    #[link(name = "kernel32")]
    extern "system" {
        // https://learn.microsoft.com/en-us/windows/win32/api/libloaderapi/nf-libloaderapi-getmodulehandlea
        fn GetModuleHandleA(name: *const c_char) -> *mut c_void;
        // https://learn.microsoft.com/en-us/windows/win32/api/libloaderapi/nf-libloaderapi-getprocaddress
        fn GetProcAddress(module: *mut c_void, name: *const c_char) -> *mut c_void;
    }

    /// Wine's own export from its `ntdll.dll`, `void wine_get_host_version(const char
    /// **sysname, const char **release)`: the host's `uname` (the way Wine documents for
    /// a program to learn it runs under Wine). Real Windows has no such export.
    type GetHostVersion = unsafe extern "system" fn(*mut *const c_char, *mut *const c_char);

    /// True when this Windows process runs under Wine on a Linux kernel.
    pub fn host_is_linux() -> bool {
        // SAFETY: both calls take NUL-terminated names and only look up loaded modules.
        let export = unsafe {
            let ntdll = GetModuleHandleA(c"ntdll.dll".as_ptr());
            if ntdll.is_null() {
                return false;
            }
            GetProcAddress(ntdll, c"wine_get_host_version".as_ptr())
        };
        if export.is_null() {
            return false;
        }
        // SAFETY: the export exists only in Wine's ntdll, with the signature above.
        let get_host_version: GetHostVersion = unsafe { std::mem::transmute(export) };
        let mut sysname: *const c_char = std::ptr::null();
        let mut release: *const c_char = std::ptr::null();
        // SAFETY: the function writes two pointers to static NUL-terminated strings.
        unsafe { get_host_version(&mut sysname, &mut release) };
        // SAFETY: checked for null; Wine's strings are NUL-terminated and static.
        !sysname.is_null() && unsafe { CStr::from_ptr(sysname) }.to_bytes() == b"Linux"
    }
}

/// The memory this machine can still give, in MiB (Linux `MemAvailable`; Windows: the
/// available physical memory), if known.
#[cfg(not(windows))]
pub fn available_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// The memory this machine can still give, in MiB (Linux `MemAvailable`; Windows: the
/// available physical memory), if known.
#[cfg(windows)]
pub fn available_mb() -> Option<usize> {
    // MEMORYSTATUSEX and GlobalMemoryStatusEx (kernel32):
    // https://learn.microsoft.com/en-us/windows/win32/api/sysinfoapi/nf-sysinfoapi-globalmemorystatusex
    #[repr(C)]
    #[derive(Default)]
    struct MemoryStatusEx {
        length: u32,
        memory_load: u32,
        total_phys: u64,
        avail_phys: u64,
        total_page_file: u64,
        avail_page_file: u64,
        total_virtual: u64,
        avail_virtual: u64,
        avail_extended_virtual: u64,
    }
    #[link(name = "kernel32")]
    extern "system" {
        fn GlobalMemoryStatusEx(buffer: *mut MemoryStatusEx) -> i32;
    }
    let mut status = MemoryStatusEx {
        length: std::mem::size_of::<MemoryStatusEx>() as u32,
        ..MemoryStatusEx::default()
    };
    // SAFETY: `status` is a MEMORYSTATUSEX with its length set, as the call requires;
    // it writes only into it.
    let ok = unsafe { GlobalMemoryStatusEx(&mut status) } != 0;
    ok.then(|| usize::try_from(status.avail_phys / (1024 * 1024)).unwrap_or(usize::MAX))
}
