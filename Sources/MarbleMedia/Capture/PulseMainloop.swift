internal import CPulse
import MarbleCore

/// A libpulse event loop on its own thread (`pa_threaded_mainloop`): every context, stream, operation
/// and timer callback of the objects created on it runs on that thread, with the loop's lock held.
/// Other threads call into those objects only between `lock()` and `unlock()`.
///
/// Safety of @unchecked Sendable: the handle never changes after init, and libpulse documents every
/// `pa_threaded_mainloop_*` function used here as callable from any thread (within the rules stated on
/// each method: `wait` from outside the loop thread with the lock held, `stop` from outside the loop
/// thread without it).
final class PulseMainloop: @unchecked Sendable {
    private let handle: OpaquePointer

    /// `pa_threaded_mainloop_new`. Throws `.device` when libpulse cannot make one (out of memory or
    /// file descriptors).
    init() throws(MarbleError) {
        guard let made = pa_threaded_mainloop_new() else {
            throw MarbleError(.device, "cannot create a PulseAudio event loop (out of memory or file descriptors)")
        }
        handle = made
    }

    /// `pa_threaded_mainloop_free`, which stops the thread first. The last reference must not be
    /// released on the loop's own thread (libpulse asserts that).
    deinit { pa_threaded_mainloop_free(handle) }

    /// The vtable contexts and timers are created with (`pa_threaded_mainloop_get_api`).
    var api: UnsafeMutablePointer<pa_mainloop_api> { pa_threaded_mainloop_get_api(handle) }

    /// Starts the thread (`pa_threaded_mainloop_start`); fails with `.device` when it cannot.
    func start() throws(MarbleError) {
        if pa_threaded_mainloop_start(handle) < 0 {
            throw MarbleError(.device, "cannot start the PulseAudio event loop thread")
        }
    }

    /// Stops and joins the thread (`pa_threaded_mainloop_stop`); does nothing when it never started.
    /// Call from another thread, without the lock.
    func stop() { pa_threaded_mainloop_stop(handle) }

    /// `pa_threaded_mainloop_lock`: excludes the loop thread, which holds it while it runs callbacks.
    /// Not on the loop thread (libpulse asserts): code there holds the lock already.
    func lock() { pa_threaded_mainloop_lock(handle) }
    func unlock() { pa_threaded_mainloop_unlock(handle) }

    /// Releases the lock until some callback calls `signal()`, then takes it again
    /// (`pa_threaded_mainloop_wait`). Wakeups may be spurious: wait in a loop on a condition.
    func wait() { pa_threaded_mainloop_wait(handle) }

    /// Wakes every `wait()`er (`pa_threaded_mainloop_signal`, not waiting for acceptance).
    func signal() { pa_threaded_mainloop_signal(handle, 0) }

    /// Whether the caller is the loop's own thread (`pa_threaded_mainloop_in_thread`).
    var isLoopThread: Bool { pa_threaded_mainloop_in_thread(handle) != 0 }
}
