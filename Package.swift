// swift-tools-version: 6.1
// MarbleKit: a CPU-only audio/video visualizer engine (FFmpeg in, SIMD-style kernels, FFmpeg out).
//
// The layers, each a module, so the compiler checks that calls only go down (and `package` access keeps
// what one layer lends the next out of the public API):
//   marble (CLI) → MarbleBench → MarbleKit → MarblePipeline → MarbleRender, MarbleMedia → MarbleCore
//   MarblePipeline → Shaders, MilkDrop (it hands the `milkdrop` layer FFmpeg's texture decoder)
//   MarbleKit → MarbleAnalysis, MarbleControl, Granite, MilkDrop;  MarbleAnalysis → MarbleDSP, MarbleMedia
//   MarbleRender → Shaders, KernelsAVX2, MarbleDSP;  Shaders → MarbleText, MilkDrop, KernelsAVX2 → MarbleCore
// MarbleMedia imports the media C modules (CFFmpeg, CPulse, CSDL2), MarbleDSP only CFFmpeg (av_tx, CPU
// flags), and MarbleText the text ones (CFreeType, CHarfBuzz, CFontconfig, CFribidi), each with
// `internal import`: no C type or raw pointer crosses their API. So MarbleRender links neither PulseAudio
// nor SDL2; MarbleAnalysis still does, through MarbleMedia's AudioDecoder (MediaAnalysis decodes files).
// Every target declares exactly the modules its files import: `Scripts/check-imports.py` checks it.
import PackageDescription

// KernelsAVX2 is compiled for Haswell-class CPUs (AVX2, FMA3, BMI1/2) on x86-64 hosts; MarbleRender calls
// it only after checking the CPU at run time, so the binary still runs on any x86-64. (The manifest is
// compiled for the host, so `arch` here is the architecture being built for.)
#if arch(x86_64)
let avx2Settings: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "haswell"])]
#else
let avx2Settings: [SwiftSetting] = []
#endif

let package = Package(
    name: "MarbleKit",
    products: [
        .executable(name: "marble", targets: ["marble"]),
        .library(name: "MarbleKit", targets: ["MarbleKit"]),
        .library(name: "Granite", targets: ["Granite"]),
        // Allocation counts per frame in `marble bench` and its regression guard (0 mallocs per frame in
        // steady state): libMarbleAllocationCounter.so, which bench preloads (LD_PRELOAD) and whose
        // counters it finds with dlsym; `marble` itself does not link it. Plain C, so it needs no Swift
        // runtime. Our own rather than ordo-one's malloc-interposer, whose 1.6.1 frees a thread's
        // counter block at thread exit and then writes into it (heap corruption in the test process;
        // see Sources/CAllocationCounter).
        .library(name: "MarbleAllocationCounter", type: .dynamic, targets: ["CAllocationCounter"]),
    ],
    // `Studio` (on by default) builds `marble studio`'s web server (Hummingbird, SwiftNIO): 1–2 minutes of
    // a first debug build on 2 cores. The README's test command leaves it out
    // (`swift test --disable-default-traits`), CI's studio step builds and drives it in a browser.
    traits: [
        .trait(name: "Studio", description: "`marble studio`: the browser page, its HTTP API and WebSockets (Hummingbird)."),
        .default(enabledTraits: ["Studio"]),
    ],
    dependencies: [
        // Command-line parsing, --help generation and validation: the standard Swift choice.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Preset files are YAML (comments, human-editable); Yams is the maintained YAML Codable library.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Frame-time percentiles in `marble bench` (p50/p95/p99 with bounded memory).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        // `swift package generate-documentation`: builds the DocC catalogues of MarbleKit and Granite.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // Real-time pacing takes a Swift `Clock` (ContinuousClock in use); the tests of the real-time
        // sources and sessions drive swift-clocks' `TestClock` instead of sleeping on the wall clock, so
        // their verdicts do not depend on the machine's load. Only test targets link it.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
        // `marble studio`'s web server: Hummingbird is the maintained HTTP server framework made for Swift
        // on Linux (SwiftNIO underneath: HTTP/1.1 parsing, keep-alive, backpressure, graceful shutdown),
        // and its WebSocket package carries the preview's frames and the render queue's events. Only the
        // `Studio` trait (on by default) builds them; see `traits` above.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        // Runs the studio's server beside the service that stops it on SIGINT/SIGTERM (Hummingbird's own
        // lifecycle library, so the signals are handled once, in order).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        // C libraries: a module map and a shim header each, nothing else.
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]),
        // No pkgConfig here: libpulse's .pc flags (-D_REENTRANT, -pthread) make SwiftPM warn, and its
        // headers live in /usr/include already.
        .systemLibrary(name: "CPulse", path: "Sources/CPulse", providers: [.apt(["libpulse-dev"])]),
        // SDL2: the portable window/texture/event library (software renderer fallback), for the window sink.
        // No pkgConfig, as for CPulse: `pkg-config sdl2` adds -D_REENTRANT, which makes SwiftPM warn.
        .systemLibrary(name: "CSDL2", path: "Sources/CSDL2", providers: [.apt(["libsdl2-dev"])]),
        // Text layers: FreeType rasterises glyphs, HarfBuzz shapes runs (kerning, ligatures, Arabic joining),
        // Fontconfig finds fonts and per-character fallbacks, FriBidi orders mixed-direction text. The
        // standard free stack (what FFmpeg's drawtext, Pango and browsers on Linux use); all from Debian.
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFribidi", path: "Sources/CFribidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),

        // Plain values shared by everything: textures, time, audio features, the shader contract.
        .target(name: "MarbleCore"),
        // The allocator entry points that count (see the product MarbleAllocationCounter). Linked into an
        // executable (the tests), its entry points must be in the dynamic symbol table to stand in for
        // libc's in the shared libraries too, and for `AllocationCounter` to find them with dlsym.
        .target(name: "CAllocationCounter",
                linkerSettings: [.unsafeFlags(["malloc", "free", "calloc", "realloc", "memalign", "aligned_alloc",
                                               "posix_memalign", "valloc", "pvalloc", "marble_allocations_enable",
                                               "marble_allocations_enable_this_thread",
                                               "marble_allocations_disable", "marble_allocations_reset",
                                               "marble_allocations_get"].flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] })]),
        // The state architecture (Redux-like, after pexavc/Granite), UI-free. Imports nothing of the project.
        .target(name: "Granite"),
        // The hottest kernels again, inlined from MarbleCore and compiled for AVX2 (see avx2Settings).
        .target(name: "KernelsAVX2", dependencies: ["MarbleCore"], swiftSettings: avx2Settings),
        // Text behind Swift types: font lookup with fallback, shaping, bidi, glyph masks. Below Shaders so
        // the `text` kernel can use it; the only module that sees the text C libraries.
        .target(name: "MarbleText", dependencies: ["MarbleCore", "CFreeType", "CHarfBuzz", "CFontconfig", "CFribidi"]),
        // MilkDrop presets on the CPU: the .milk file, its expression language compiled once, and the
        // renderer (warp mesh, waves, shapes, borders, echo). Below Shaders so the `milkdrop` kernel uses it.
        .target(name: "MilkDrop", dependencies: ["MarbleCore"]),
        // One kernel per file: the CPU's .metal files.
        .target(name: "Shaders", dependencies: ["MarbleCore", "KernelsAVX2", "MarbleText", "MilkDrop"], path: "Shaders"),
        // The signal tools FFmpeg's libavutil lends: the real FFT (av_tx) and CPU detection. Its own module
        // so analysis and render use them without linking MarbleMedia's PulseAudio and SDL2.
        .target(name: "MarbleDSP", dependencies: ["MarbleCore", "CFFmpeg"]),
        // FFmpeg, PulseAudio and SDL2 behind Swift types: decode, encode, mux, scale, write files, play
        // sound, capture, show a window.
        .target(name: "MarbleMedia", dependencies: ["MarbleCore", "CFFmpeg", "CPulse", "CSDL2"]),
        // Audio → features: FFT bands, loudness, onsets, tempo and beats (offline and causal). MarbleMedia
        // only for MediaAnalysis, which decodes a file (AudioDecoder) into the analysers.
        .target(name: "MarbleAnalysis", dependencies: ["MarbleCore", "MarbleDSP", "MarbleMedia"]),
        // Features → pictures: presets, the compositor running the shaders in bands across cores, YUV.
        .target(
            name: "MarbleRender",
            dependencies: ["MarbleCore", "MarbleDSP", "Shaders", "KernelsAVX2", .product(name: "Yams", package: "Yams")]),
        // Control from outside a running session: OSC over UDP (a small decoder of our own: no OSC
        // library for Swift on Linux is among the packages this project may use; it is fuzzed by
        // FuzzOSC), saved files through inotify. Plain Glibc, below MarbleKit.
        .target(name: "MarbleControl", dependencies: ["MarbleCore"]),
        // The frame path: a source → the renderer → sinks (video file, PNG, terminal), on a frame clock.
        .target(name: "MarblePipeline", dependencies: ["MarbleCore", "MarbleMedia", "MarbleRender", "Shaders", "MilkDrop"]),
        // The engine's jobs, as configurations of the pipeline: render a file, play one, live capture;
        // the player's and the live session's state in Granite. Re-exports the layers below.
        .target(
            name: "MarbleKit",
            dependencies: [
                "MarbleCore", "MarbleMedia", "MarbleAnalysis", "MarbleRender", "MarblePipeline", "MarbleControl", "MilkDrop",
                "Granite",
            ]),
        // `marble bench`: frame-time percentiles, allocation counts, the CI guard, FFmpeg comparison, live
        // latency. Its own module, so HdrHistogram stays out of the library.
        .target(
            name: "MarbleBench",
            dependencies: [
                "MarbleKit", "MarbleCore", "MarbleMedia", "MarbleAnalysis", "MarbleRender", "MarblePipeline", "MarbleControl",
                "Shaders", "Granite", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),
        // `marble studio` without its web server: the folders it may read, the look ↔ preset, the preview
        // that follows the page's clock, the render queue. No SwiftNIO, so the default tests cover it.
        .target(
            name: "MarbleStudio",
            dependencies: [
                "MarbleKit", "MarbleCore", "MarbleMedia", "MarbleAnalysis", "MarbleRender", "MarblePipeline",
                .product(name: "Yams", package: "Yams"),
            ]),
        // The web server over MarbleStudio: routes, WebSockets, the access token, the page (plain
        // HTML/CSS/JavaScript under Page/, embedded in the binary). Compiled only with the `Studio` trait.
        .target(
            name: "MarbleStudioServer",
            dependencies: [
                "MarbleStudio", "MarbleRender", "MarbleCore",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Studio"])),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: .when(traits: ["Studio"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Studio"])),
            ],
            resources: [.embedInCode("Page")]),
        // The command-line tool: parses, calls MarbleKit.
        .executableTarget(
            name: "marble",
            dependencies: [
                "MarbleKit", "MarbleBench", "MarbleStudio", "MarbleStudioServer", "Shaders",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Sample programs that embed the library (Samples/, each under 80 lines; run by SamplesTests).
        .executableTarget(name: "RenderScene", dependencies: ["MarbleKit"], path: "Samples/RenderScene"),
        .executableTarget(name: "CustomShader", dependencies: ["MarbleKit"], path: "Samples/CustomShader"),
        .executableTarget(name: "LiveBeats", dependencies: ["MarbleKit"], path: "Samples/LiveBeats"),

        // Helpers the test targets share (recorders, gates, polling): written once.
        .target(name: "TestSupport", dependencies: ["Granite"], path: "Tests/TestSupport"),
        .testTarget(name: "MarbleCoreTests", dependencies: ["MarbleCore", "TestSupport"]),
        .testTarget(name: "GraniteTests", dependencies: ["Granite", "TestSupport"]),
        .testTarget(name: "MarbleTextTests", dependencies: ["MarbleText", "MarbleCore"]),
        .testTarget(name: "MilkDropTests", dependencies: ["MilkDrop", "MarbleCore"]),
        // Golden images are PAM files read by path (see Tests/TestSupport/GoldenStore.swift), so excluded.
        .testTarget(name: "ShadersTests", dependencies: ["Shaders", "MarbleCore", "MarbleText", "TestSupport"], exclude: ["Golden/GoldenImages"]),
        .testTarget(name: "MarbleDSPTests", dependencies: ["MarbleDSP", "MarbleCore"]),
        .testTarget(name: "MarbleControlTests", dependencies: ["MarbleControl", "MarbleCore", "TestSupport"]),
        .testTarget(
            name: "MarbleMediaTests",
            dependencies: ["MarbleMedia", "MarbleCore", "CFFmpeg", "MarbleBench", "TestSupport", .product(name: "Clocks", package: "swift-clocks")]),
        .testTarget(name: "MarbleAnalysisTests", dependencies: ["MarbleAnalysis", "MarbleCore", "MarbleMedia", "TestSupport"]),
        .testTarget(name: "MarbleRenderTests", dependencies: ["MarbleRender", "MarbleCore", "MarbleMedia", "KernelsAVX2", "Shaders"]),
        .testTarget(
            name: "MarblePipelineTests",
            dependencies: [
                "MarblePipeline", "MarbleCore", "MarbleMedia", "MarbleAnalysis", "MarbleRender", "TestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ]),
        .testTarget(
            name: "MarbleKitTests",
            dependencies: [
                "MarbleKit", "MarbleCore", "MarbleMedia", "MarbleAnalysis", "MarbleRender", "MarblePipeline", "MarbleControl",
                "Granite", "Shaders", "TestSupport",
            ],
            exclude: ["Render/Golden/GoldenImages", "MilkDrop/GoldenImages"]),
        // Links the allocation counter, so the test process counts its allocations.
        .testTarget(
            name: "MarbleBenchTests",
            dependencies: [
                "MarbleBench", "MarbleKit", "MarbleCore", "MarbleMedia", "MarbleAnalysis", "MarbleRender", "MarblePipeline",
                "Shaders", "CAllocationCounter",
            ]),
        .testTarget(
            name: "MarbleStudioTests",
            dependencies: ["MarbleStudio", "MarbleKit", "MarbleCore", "MarbleAnalysis", "MarbleRender", "TestSupport"]),
        .testTarget(name: "MarbleCLITests", dependencies: ["marble", "MarbleStudio", "TestSupport"]),
        .testTarget(name: "SamplesTests", dependencies: ["RenderScene", "CustomShader", "LiveBeats", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz harnesses (Tests/Fuzz, run by Tests/Fuzz/run.sh): libFuzzer drivers over what users feed the
// engine. They exist only when MARBLE_FUZZ is set, because they are built with
// `-sanitize=fuzzer,address`; the normal build and tests never see them.
if Context.environment["MARBLE_FUZZ"] != nil {
    package.targets += [
        .target(name: "CLibFuzzer", path: "Tests/Fuzz/CLibFuzzer"),
        .executableTarget(name: "FuzzMedia", dependencies: ["CLibFuzzer", "MarbleCore", "MarbleMedia", "MarbleAnalysis"], path: "Tests/Fuzz/FuzzMedia"),
        .executableTarget(name: "FuzzPreset", dependencies: ["CLibFuzzer", "MarbleCore", "MarbleRender"], path: "Tests/Fuzz/FuzzPreset"),
        .executableTarget(name: "FuzzOptions", dependencies: ["CLibFuzzer", "MarbleKit"], path: "Tests/Fuzz/FuzzOptions"),
        .executableTarget(name: "FuzzShader", dependencies: ["CLibFuzzer", "MilkDrop"], path: "Tests/Fuzz/FuzzShader"),
        .executableTarget(name: "FuzzMilk", dependencies: ["CLibFuzzer", "MilkDrop"], path: "Tests/Fuzz/FuzzMilk"),
        .executableTarget(name: "FuzzOSC", dependencies: ["CLibFuzzer", "MarbleControl", "MarbleKit"], path: "Tests/Fuzz/FuzzOSC"),
        .executableTarget(name: "FuzzPlaylist", dependencies: ["CLibFuzzer", "MarbleKit"], path: "Tests/Fuzz/FuzzPlaylist"),
    ]
}
