// Internal: ytt's files.OutputDirectory: `--output-files DIR` and
// `--dangerous-emptied-output-directory DIR` write each output file below DIR; the second
// first checks the paths and empties DIR with Go's os.RemoveAll. Entry point
// `write_output_directory`.
//
// The Go calls ytt makes (os.RemoveAll, os.MkdirAll, os.OpenFile) are ported over folder
// descriptors: every folder is opened with O_DIRECTORY|O_NOFOLLOW from its parent's descriptor,
// so a folder swapped for a symbolic link while hintkit runs is never followed. Where ytt would
// follow a symbolic link that is already there (a folder of DIR's path, a file being replaced),
// hintkit refuses (exit 2) instead, before writing through it. Modes are ytt's: 0700 for new
// folders and files.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hintkit::schema {

// One output file: its path relative to the output folder, and its bytes.
using OutputFile = std::pair<std::string, std::string>;

// Writes `files` below `dir` as ytt's OutputDirectory.Write (`emptied`) or WriteFiles does,
// appending "creating: PATH\n" to `printed` before each file is created. Throws YttError with
// Go's error text (exit 1), or Unsupported for a symbolic link on the way (exit 2).
void write_output_directory(const std::string& dir, const std::vector<OutputFile>& files,
                            bool emptied, std::string& printed);

// Go's os.RemoveAll(path) (removeall_at.go), relative to descriptors; exposed for tests.
// Throws as write_output_directory does. Refuses to empty the root folder.
void go_remove_all(const std::string& path);

}  // namespace hintkit::schema
