/// Scratch memory for kernels: allocated in `init`/`configure`, never in `prepare`/`render`.

/// A buffer of `count` elements set to `value` (at least one element, so it is always deallocatable).
func allocateFilled<T>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
    let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, count))
    p.initialize(repeating: value, count: max(1, count))
    return p
}
