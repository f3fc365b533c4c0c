// Internal: loads the YAML of the input files on a second thread, one file ahead of the
// pipeline, so that parsing the next file overlaps with templating and checking this one.
// Without that thread (one file, or little text after the first), a long file is read in two
// halves on two threads instead.
// The pipeline asks for files in the order it was given; it loads the first one itself, and
// any file the worker has not started yet. Look-ahead is one file, so at most two loaded but
// unevaluated trees exist at once.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "schema/internal.h"

namespace hintkit::schema {

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
