// workspace: ytt's pkg/workspace, how files become a library's run: template loading (`load()`
// of `@ytt:` modules, `.star` and `.lib.yml` files: template_loader.cpp), library references
// (`@library/ref`, `@lib~alias`: library_ref.cpp) and the YAML of the input files loaded ahead
// on a second thread (`YamlPreloader`: preload.cpp). The pipeline that runs a library (data
// values pre-processing, templates, overlays) is the command's `Engine` (ytt/cmd/engine.cpp).
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "ytt/files/files.h"
#include "ytt/template/template.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::schema {

// `load(module)` from the file running innermost (Files::running): `@ytt:` modules, else a
// `.star` or `.lib.yml` file of the file set, found as ytt finds it (template_loader.cpp).
sl::Result<sl::Module> load_module(Files& files, sl::Thread& thread, std::string_view module);
// The rest of `load(module)` once its file is found: checks it is a library file, evaluates it
// (once per file) and returns its globals.
sl::Result<sl::Module> load_found(Files& files, sl::Thread& thread, const SourceFile& file,
                                  std::string_view module);

// ---- Library addressing (ytt's pkg/workspace/ref and datavalues envelopes) ------------------

// One step of a library reference: `@path`, `@~alias` or `@path~alias`.
struct LibraryRef {
  std::string path, alias;
};
// ytt's LibraryRefExtractor.FromStr: "@a@b~x" -> [{a}, {b, x}]. Throws YttError with ytt's text.
std::vector<LibraryRef> parse_library_ref(std::string_view text);
// The `@library/ref` of a document's annotations (empty without one). Throws YttError.
std::vector<LibraryRef> library_ref_of(const std::vector<Ann>& anns);
// "@a@b~x", as ytt describes the library a document is addressed to.
std::string library_ref_text(const std::vector<LibraryRef>& ref);
// ytt's parseDVLibAnnotations: the library a `@data/values` document is addressed to, with
// its `after_library_module=` keyword checked. Throws YttError.
std::vector<LibraryRef> data_values_library_ref(const std::vector<Ann>& anns);

// ---- Loading ahead -------------------------------------------------------------------------

// Internal: loads the YAML of the input files on a second thread, one file ahead of the
// pipeline, so that parsing the next file overlaps with templating and checking this one.
// Without that thread (one file, or little text after the first), a long file is read in two
// halves on two threads instead.
// The pipeline asks for files in the order it was given; it loads the first one itself, and
// any file the worker has not started yet. Look-ahead is one file, so at most two loaded but
// unevaluated trees exist at once.
class YamlPreloader {
 public:
  struct Input {
    size_t file_index;  // index in Files::files
    std::string path;
    std::string_view text;  // must stay valid while the preloader lives (SourceLines' heap text)
  };
  // `on_worker_done` (optional) runs on the calling thread once the last file is taken and
  // the worker thread has ended, and after each file that, with no worker running, was read
  // in two halves on two threads (yaml::load_split).
  // `strict`: files are read with ytt's strict YAML.
  // `min_bytes_ahead`: the worker starts only when the files after the first hold at least
  // this much text; below it, starting, running and ending a thread costs more than parsing
  // them on the calling thread (a 1 KB overlay file beside a large template).
  YamlPreloader(std::vector<Input> order, bool strict, std::function<void()> on_worker_done = {},
                size_t min_bytes_ahead = 0);
  ~YamlPreloader();  // stops the worker and waits for it
  YamlPreloader(const YamlPreloader&) = delete;
  YamlPreloader& operator=(const YamlPreloader&) = delete;

  // The loaded YAML of file `file_index`, nullopt when it is not in the order (or was taken).
  std::optional<LoadedYaml> take(size_t file_index);

 private:
  enum class State { kWaiting, kLoading, kReady, kTaken };
  struct Slot {
    Input input;
    State state = State::kWaiting;
    std::optional<LoadedYaml> loaded;
  };
  void work();
  void finish_worker();

  std::vector<Slot> slots_;
  size_t asked_ = 0;  // highest slot the pipeline has asked for
  bool stop_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread worker_;
  std::function<void()> on_worker_done_;
  bool strict_ = false;
};

}  // namespace hintkit::schema
