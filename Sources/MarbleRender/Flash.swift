import Foundation
import MarbleCore

/// A performer's flash (OSC `/marble/flash`): the picture lifted towards white at once, then fading
/// back over a few frames. Applied after the layers, to the RGBA picture and to the YUV frame alike, so
/// the screens and the recordings show the same flash.
package enum Flash {
    /// Seconds for the flash to fall to 1/e of its strength.
    package static let fadeSeconds = 0.08
    /// Seconds after which it is over (strength below 1/64).
    package static let lastsSeconds = fadeSeconds * 4.2

    /// The strength (0…1) `elapsed` seconds after the flash was asked for; 0 before and after it.
    package static func strength(elapsed: Double) -> Float {
        guard elapsed >= 0, elapsed < lastsSeconds else { return 0 }
        return Float(exp(-elapsed / fadeSeconds))
    }

    /// Lifts every byte of the premultiplied RGBA picture towards 255 (opaque white) by `strength`.
    package static func apply(_ strength: Float, to picture: TextureView) {
        let weight = weight(strength)
        guard weight > 0 else { return }
        for y in 0..<picture.height {
            lift(picture.row(y), count: picture.width * 4, toward: 255, weight: weight)
        }
    }

    /// Lifts a BT.709 limited-range 4:2:0 frame of `width`×`height` towards white (Y 235, U and V 128).
    package static func apply(_ strength: Float, to planes: YUV420.Planes, width: Int, height: Int) {
        let weight = weight(strength)
        guard weight > 0 else { return }
        for y in 0..<height { lift(planes.y + y * planes.yStride, count: width, toward: 235, weight: weight) }
        for y in 0..<(height + 1) / 2 {
            lift(planes.u + y * planes.uStride, count: (width + 1) / 2, toward: 128, weight: weight)
            lift(planes.v + y * planes.vStride, count: (width + 1) / 2, toward: 128, weight: weight)
        }
    }

    private static func weight(_ strength: Float) -> Int32 {
        Int32((max(0, min(1, strength)) * 256).rounded())
    }

    /// b += (target − b) × weight / 256 for `count` bytes; a plain loop the compiler vectorizes.
    @inline(__always)
    private static func lift(_ bytes: UnsafeMutablePointer<UInt8>, count: Int, toward target: Int32, weight: Int32) {
        for i in 0..<count {
            let b = Int32(bytes[i])
            bytes[i] = UInt8(truncatingIfNeeded: b &+ (((target &- b) &* weight) >> 8))
        }
    }
}
