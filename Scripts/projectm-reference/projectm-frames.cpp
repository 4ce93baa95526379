// projectm-frames: renders one MilkDrop preset with Debian's libprojectM 3.1.12 into an OpenGL
// context (SDL2, meant for Xvfb + Mesa llvmpipe), fed with raw PCM, and times every frame.
//
// Written for MarbleKit as a reference and speed anchor (docs/MILKDROP-REFERENCE.md); it only uses
// libprojectM's public C++ API (projectM.hpp, PCM.hpp) and its exported clock hook.
//
//   projectm-frames --preset FILE --pcm FILE.f32 --size WxH --frames N
//                   [--save 60,300,600] [--out-prefix DIR/stem] [--mesh 48x36] [--seed 1]
//
// --pcm is interleaved stereo float32 at 44100 Hz (ffmpeg -f f32le -ac 2 -ar 44100). Each frame gets
// the next 735 stereo samples (44100 / 60), zeros past the end. Saved frames are written as binary
// PPM (DIR/stem-frameNNN.ppm, frame numbers 1-based, rows top to bottom). Timing per frame is
// renderFrame() + glFinish(); the readback of saved frames is outside the timed span.
// The clock projectM sees is virtual: frame k (0-based) is at k/60 s, whatever the real speed.
#include <libprojectM/projectM.hpp>
#include <SDL2/SDL.h>
#include <GL/gl.h>
#include <sys/resource.h>
#include <sys/time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

// libprojectM 3.1.12 reads its clock through this exported pointer (timer.h, not installed).
extern "C" {
typedef int (*ProjectMClock)(struct timeval *, struct timezone *);
extern ProjectMClock pprojectm_gettimeofday;
}

namespace {

constexpr int kFps = 60;
constexpr int kSampleRate = 44100;
constexpr int kSamplesPerFrame = kSampleRate / kFps; // 735 stereo samples

long long gVirtualMicros = 0; // time since the virtual epoch, advanced once per frame

int virtualClock(struct timeval *tv, struct timezone *) {
    const long long epoch = 1000000000LL * 1000000LL; // arbitrary fixed start, in microseconds
    const long long now = epoch + gVirtualMicros;
    tv->tv_sec = static_cast<time_t>(now / 1000000);
    tv->tv_usec = static_cast<suseconds_t>(now % 1000000);
    return 0;
}

struct Options {
    std::string preset, pcm, outPrefix = "frame";
    int width = 1280, height = 720, frames = 600, meshX = 48, meshY = 36;
    unsigned seed = 1;
    std::set<int> save;
};

[[noreturn]] void fail(const std::string &message) {
    std::fprintf(stderr, "projectm-frames: %s\n", message.c_str());
    std::exit(2);
}

bool parsePair(const char *text, int &a, int &b) {
    return std::sscanf(text, "%dx%d", &a, &b) == 2 && a > 0 && b > 0;
}

Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (i + 1 >= argc) fail("missing value after " + key);
        const char *value = argv[++i];
        if (key == "--preset") o.preset = value;
        else if (key == "--pcm") o.pcm = value;
        else if (key == "--out-prefix") o.outPrefix = value;
        else if (key == "--frames") o.frames = std::atoi(value);
        else if (key == "--seed") o.seed = static_cast<unsigned>(std::strtoul(value, nullptr, 10));
        else if (key == "--size") { if (!parsePair(value, o.width, o.height)) fail("bad --size"); }
        else if (key == "--mesh") { if (!parsePair(value, o.meshX, o.meshY)) fail("bad --mesh"); }
        else if (key == "--save") {
            std::string list = value;
            for (size_t start = 0; start <= list.size();) {
                size_t comma = list.find(',', start);
                if (comma == std::string::npos) comma = list.size();
                if (comma > start) o.save.insert(std::atoi(list.substr(start, comma - start).c_str()));
                start = comma + 1;
            }
        } else fail("unknown option " + key);
    }
    if (o.preset.empty() || o.pcm.empty()) fail("--preset and --pcm are required");
    if (o.frames < 1) fail("--frames must be positive");
    return o;
}

std::vector<float> readPCM(const std::string &path) {
    FILE *file = std::fopen(path.c_str(), "rb");
    if (!file) fail("cannot open " + path);
    std::vector<float> samples;
    float chunk[4096];
    size_t got;
    while ((got = std::fread(chunk, sizeof(float), 4096, file)) > 0) samples.insert(samples.end(), chunk, chunk + got);
    std::fclose(file);
    return samples;
}

void writePPM(const std::string &path, int width, int height, std::vector<unsigned char> &rgb) {
    FILE *file = std::fopen(path.c_str(), "wb");
    if (!file) fail("cannot write " + path);
    std::fprintf(file, "P6\n%d %d\n255\n", width, height);
    const size_t row = static_cast<size_t>(width) * 3;
    for (int y = height - 1; y >= 0; --y) std::fwrite(rgb.data() + row * y, 1, row, file); // GL rows go bottom-up
    std::fclose(file);
}

double cpuSeconds() { // user + system time of all threads (projectM's and llvmpipe's)
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

double percentile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    const size_t index = std::min(values.size() - 1, static_cast<size_t>(p * (values.size() - 1) + 0.5));
    return values[index];
}

std::string jsonEscape(const std::string &text) {
    std::string out;
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

} // namespace

int main(int argc, char **argv) {
    const Options o = parse(argc, argv);
    const std::vector<float> pcm = readPCM(o.pcm);

    if (SDL_Init(SDL_INIT_VIDEO) != 0) fail(std::string("SDL_Init: ") + SDL_GetError());
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_Window *window = SDL_CreateWindow("projectm-frames", 0, 0, o.width, o.height, SDL_WINDOW_OPENGL);
    if (!window) fail(std::string("SDL_CreateWindow: ") + SDL_GetError());
    SDL_GLContext context = SDL_GL_CreateContext(window);
    if (!context) fail(std::string("SDL_GL_CreateContext: ") + SDL_GetError());
    SDL_GL_SetSwapInterval(0);
    const char *renderer = reinterpret_cast<const char *>(glGetString(GL_RENDERER));
    const char *version = reinterpret_cast<const char *>(glGetString(GL_VERSION));
    std::fprintf(stderr, "GL_RENDERER: %s\nGL_VERSION: %s\n", renderer, version);

    pprojectm_gettimeofday = virtualClock; // before construction: the TimeKeeper reads its start time

    projectM::Settings settings;
    settings.meshX = o.meshX;
    settings.meshY = o.meshY;
    settings.fps = kFps;
    settings.textureSize = 1024; // 3.1.12 sizes its render target from the window instead
    settings.windowWidth = o.width;
    settings.windowHeight = o.height;
    settings.presetURL = "/usr/share/projectM/presets";
    settings.datadir = "/usr/share/projectM";
    settings.smoothPresetDuration = 0;
    settings.presetDuration = 60; // 3.1.12 clamps to 1..60 s; `progress` reaches 1 at 60 s
    settings.hardcutEnabled = false;
    settings.beatSensitivity = 1.0f;
    settings.aspectCorrection = true;
    settings.easterEgg = 0.0f; // preset duration drawn from N(60, 0): always 60, no randomness
    settings.shuffleEnabled = false;
    auto owner = std::make_unique<projectM>(settings, int{projectM::FLAG_DISABLE_PLAYLIST_LOAD});
    projectM &engine = *owner;

    std::srand(o.seed); // the constructor seeded rand() with time(NULL); presets' rand() uses it
    const std::string name = o.preset.substr(o.preset.find_last_of('/') + 1);
    engine.addPresetURL(o.preset, name, RatingList(TOTAL_RATING_TYPES, 3)); // one rating per kind, or it crashes
    engine.selectPreset(0, true);
    engine.setPresetLock(true);
    if (engine.getErrorLoadingCurrentPreset()) fail("projectM could not load " + o.preset);

    std::vector<double> times;
    std::vector<unsigned char> rgb(static_cast<size_t>(o.width) * o.height * 3);
    std::vector<float> silence(kSamplesPerFrame * 2, 0.0f);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    const double cpuStart = cpuSeconds();
    double cpuInSaves = 0; // readback and file writing, left out of the CPU figure
    const auto wallStart = std::chrono::steady_clock::now();
    for (int frame = 0; frame < o.frames; ++frame) {
        SDL_Event event;
        while (SDL_PollEvent(&event)) {}
        const size_t offset = static_cast<size_t>(frame) * kSamplesPerFrame * 2;
        const float *chunk = offset + kSamplesPerFrame * 2 <= pcm.size() ? pcm.data() + offset : silence.data();
        engine.pcm()->addPCMfloat_2ch(chunk, kSamplesPerFrame * 2); // count is floats, not sample pairs
        gVirtualMicros = static_cast<long long>(frame) * 1000000LL / kFps;

        const auto start = std::chrono::steady_clock::now();
        engine.renderFrame();
        glFinish();
        const auto end = std::chrono::steady_clock::now();
        times.push_back(std::chrono::duration<double, std::milli>(end - start).count());

        if (o.save.count(frame + 1)) {
            const double cpuSaveStart = cpuSeconds();
            glReadBuffer(GL_BACK);
            glReadPixels(0, 0, o.width, o.height, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
            char suffix[32];
            std::snprintf(suffix, sizeof suffix, "-frame%03d.ppm", frame + 1);
            writePPM(o.outPrefix + suffix, o.width, o.height, rgb);
            cpuInSaves += cpuSeconds() - cpuSaveStart;
        }
        SDL_GL_SwapWindow(window);
    }

    const double cpuTotal = cpuSeconds() - cpuStart - cpuInSaves;
    const double wallTotal = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();

    // The first frames pay for llvmpipe compiling its shader variants: they are reported apart.
    const int warmup = std::min(10, static_cast<int>(times.size()) - 1);
    std::vector<double> steady(times.begin() + warmup, times.end());
    double sum = 0;
    for (double t : steady) sum += t;
    const double mean = sum / steady.size();
    const double p50 = percentile(steady, 0.50), p99 = percentile(steady, 0.99);
    std::printf("{\"preset\":\"%s\",\"size\":\"%dx%d\",\"mesh\":\"%dx%d\",\"frames\":%d,\"warmup_frames\":%d,"
                "\"first_frame_ms\":%.2f,\"p50_ms\":%.2f,\"p99_ms\":%.2f,\"mean_ms\":%.2f,\"fps_mean\":%.2f,"
                "\"fps_p50\":%.2f,\"cpu_ms_per_frame\":%.2f,\"wall_s\":%.2f,\"renderer\":\"%s\"}\n",
                jsonEscape(name).c_str(), o.width, o.height, o.meshX, o.meshY, o.frames, warmup, times[0], p50,
                p99, mean, 1000.0 / mean, 1000.0 / p50, 1000.0 * cpuTotal / o.frames, wallTotal, jsonEscape(renderer ? renderer : "?").c_str());

    owner.reset(); // frees GL objects while the context is still current
    SDL_GL_DeleteContext(context);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return 0;
}
