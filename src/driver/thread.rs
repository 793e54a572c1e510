//! The thread each file is compiled on (single-file mode and each file of
//! `polyc batch`). polyc's passes recurse over the user's expressions, at
//! most `frontend::depth::MAX_DEPTH` levels deep: the thread reserves a
//! stack far larger than that needs (address space: pages are committed
//! only when touched). A panic (a bug in polyc) ends the thread, not the
//! process: the caller gets its message and writes nothing for the file.
//!
//! [`COMPILE_STACK`] is 256 MiB. The command line exits with status 5
//! after such a panic; `polyc batch` records it as that file's failure and
//! goes on with the others.

use std::any::Any;

/// Bytes of stack reserved for compiling one file.
pub const COMPILE_STACK: usize = 256 << 20;

/// `job`'s result, run on a thread with [`COMPILE_STACK`] bytes of stack;
/// `Err` with the message of its panic, or why the thread did not start.
pub fn on_compile_thread<T: Send>(job: impl FnOnce() -> T + Send) -> Result<T, String> {
    std::thread::scope(|s| {
        let thread = std::thread::Builder::new().name("polyc-compile".into()).stack_size(COMPILE_STACK);
        let handle = thread.spawn_scoped(s, job).map_err(|e| format!("cannot start a thread to compile on: {e}"))?;
        handle.join().map_err(|payload| format!("polyc panicked: {}", panic_message(&*payload)))
    })
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_comes_back_as_its_message() {
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let result: Result<(), String> = on_compile_thread(|| panic!("bug {}", 7));
        std::panic::set_hook(quiet);
        assert_eq!(result, Err("polyc panicked: bug 7".to_string()));
    }

    #[test]
    fn recursion_deeper_than_a_main_thread_allows_fits() {
        fn depth(n: usize) -> usize {
            let pad = std::hint::black_box([0u8; 1024]);
            if n == 0 {
                pad[0] as usize
            } else {
                1 + depth(n - 1) + pad[n % 1024] as usize
            }
        }
        // 64 MiB of frames: eight times a main thread's 8 MiB.
        assert_eq!(on_compile_thread(|| depth(64 * 1024)), Ok(64 * 1024));
    }
}
