// Fuzzes the values engine: the input is one template file given to `hintkit values -f`,
// run in process through the whole pipeline (YAML, templating and Starlark, schema, data
// values, overlays, validations, output). Any text must end with output or ytt's error, never
// a crash.
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "schema/schema.h"

using namespace hintkit;

namespace {

// The engine reads files by name: one private folder per fuzzing process, in memory when
// /dev/shm is there (rewriting a file on disk for every input cost an eighth of the run in
// the file system's writeback when it is truncated).
const std::string& template_path() {
  static const std::string path = [] {
    const char* tmp = getenv("TMPDIR");
    std::string dir = (tmp                             ? tmp
                       : access("/dev/shm", W_OK) == 0 ? "/dev/shm"
                                                       : "/tmp") +
                      std::string("/hk-fuzz-XXXXXX");
    if (!mkdtemp(dir.data())) abort();
    atexit([] {
      unlink(template_path().c_str());
      rmdir(template_path().substr(0, template_path().rfind('/')).c_str());
    });
    return dir + "/template.yaml";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    std::ofstream out(template_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) abort();
  }
  schema::Options options;
  options.files = {template_path()};
  (void)schema::run(options);
  return 0;
}
