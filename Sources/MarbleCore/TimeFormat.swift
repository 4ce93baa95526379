import Foundation

/// Clock-style durations for people: "3:07", "1:02:03", or with tenths "3:07.4".
package enum TimeFormat {
    /// `seconds` as m:ss (h:mm:ss from one hour), rounded to the second, or with `tenths` rounded as a
    /// whole to the tenth first (so 59.96 s reads "1:00.0", never "0:60.0"). "--:--" when not finite
    /// or negative.
    package static func clock(_ seconds: Double, tenths: Bool = false) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e15 else { return "--:--" }
        let units = Int((tenths ? seconds * 10 : seconds).rounded())
        let s = tenths ? units / 10 : units
        let whole = s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                              : String(format: "%d:%02d", s / 60, s % 60)
        return tenths ? whole + ".\(units % 10)" : whole
    }
}
