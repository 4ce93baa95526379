// libFuzzer's driver entry point (compiler-rt, linked by -sanitize=fuzzer). SwiftPM gives a harness
// executable its own `main`, so the harness's top-level code hands its test function to the driver.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
