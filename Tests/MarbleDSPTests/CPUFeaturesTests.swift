import Foundation
@testable import MarbleDSP
import Testing

@Suite("CPUFeatures")
struct CPUFeaturesTests {
    /// Linux lists in /proc/cpuinfo only the features the kernel enabled (it hides AVX when it does not
    /// save the wide registers), which is what FFmpeg's detection checks too.
    @Test("the AVX2 set is found exactly when /proc/cpuinfo lists avx2, fma, bmi1 and bmi2")
    func matchesCPUInfo() throws {
        #if !arch(x86_64)
        #expect(!CPUFeatures.hasAVX2Set)
        #elseif os(Linux)
        let text = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flagsLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("flags") })
        let flags = Set(flagsLine.split(separator: " ").map(String.init))
        #expect(CPUFeatures.hasAVX2Set == ["avx2", "fma", "bmi1", "bmi2"].allSatisfy(flags.contains))
        #endif
    }
}
