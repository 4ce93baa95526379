import MarbleCore
import Testing
@testable import Shaders

/// The grid each background is evaluated on (Support/Background.swift): fine enough for thin features
/// at small sizes, within the frame-time budget at 1080p (issue 12, defect 4).
@Suite struct BackgroundResolutionTests {
    /// The fields with thin features the issue names, by shader name.
    static let thin = ["black_diamond", "constellation", "voronoise", "marble", "granite"]

    static func resolution(_ name: String) -> BackgroundResolution? {
        switch name {
        case "black_diamond": BlackDiamond.resolution
        case "constellation": Constellation.resolution
        case "voronoise": Voronoise.resolution
        case "marble": MarbleBackground.resolution
        case "granite": GraniteBackground.resolution
        default: nil
        }
    }

    @Test("thin fields: full resolution at 320x180, at most a third at 720p, never over budget", arguments: thin)
    func scales(_ name: String) throws {
        let resolution = try #require(Self.resolution(name))
        #expect(resolution.scale(width: 320, height: 180) == 1)
        #expect(resolution.scale(width: 1280, height: 720) <= 3)
        for (w, h) in [(640, 360), (1280, 720), (1920, 1080), (3840, 2160)] {
            let s = resolution.scale(width: w, height: h)
            let pixels = ((w + s - 1) / s) * ((h + s - 1) / s)
            #expect(pixels <= resolution.budget || s == resolution.coarsest, "\(name) at \(w)x\(h): scale \(s)")
            #expect(s <= resolution.coarsest)
        }
        // Smooth fields keep their one scale.
        #expect(BackgroundResolution(scale: 5).scale(width: 320, height: 180) == 5)
    }

    /// The difference on the fixed quarter/fifth-resolution grids before (the same measure).
    static let coarseDifference = ["black_diamond": 3.1, "constellation": 4.35, "voronoise": 8.66, "marble": 4.45, "granite": 10.5]

    /// A 320x180 frame against a 640x360 frame averaged down 2×2: on a coarse grid thin lines and
    /// grains turn into beads and blocks that the larger frame does not have.
    @Test("thin fields at 320x180 agree with twice the size averaged down", arguments: thin)
    func smallAgreesWithLarge(_ name: String) throws {
        let features = Look.features(frame: 90, beat: 0)
        let small = try Look.frame(name, seconds: 3, features: features, width: 320, height: 180)
        let large = try Look.frame(name, seconds: 3, features: features, width: 640, height: 360)
        var down = [UInt8](repeating: 255, count: small.count)
        for y in 0..<180 {
            for x in 0..<320 {
                for c in 0..<3 {
                    var sum = 0
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] { sum += Int(large[4 * ((2 * y + dy) * 640 + 2 * x + dx) + c]) }
                    down[4 * (y * 320 + x) + c] = UInt8((sum + 2) / 4)
                }
            }
        }
        let difference = Look.meanDifference(small, down)
        #expect(difference < 0.6 * Self.coarseDifference[name, default: 0], "\(name): mean difference \(difference)")
    }
}
