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

// The engine reads files by name: one private folder per fuzzing process.
const std::string& template_path() {
  static const std::string path = [] {
    std::string dir =
        (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") + std::string("/hk-fuzz-XXXXXX");
    if (!mkdtemp(dir.data())) abort();
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
