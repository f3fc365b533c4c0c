// ytt's `fmt` command (pkg/cmd/fmt.go): each YAML file of the -f inputs, in ytt's order,
// formatted by yamlfmt. A file's output is printed before the next one is read, so the files
// before a failing one stay printed.
#include "ytt/cmd/cmd.h"
#include "ytt/yamlfmt/yamlfmt.h"

namespace hintkit::ytt {

Outcome run_fmt(const Options& options) {
  Outcome out;
  try {
    StdinUse stdin_use;
    const ReadRules rules{&options.unsaved_texts, options.regular_files_only};
    for (const SourceFile& f : read_file_set(options.files, stdin_use, rules)) {
      if (file_type(f) == FileType::kYaml) out.out += format_yaml_file(f, options.strict);
    }
  } catch (const Unsupported& u) {
    out.exit_code = kExitUnsupported;
    out.err = unsupported_text(u.feature);
  } catch (YttError& e) {
    out.exit_code = e.exit_code;
    const std::string text = multi_line_error(e.message());
    out.err = "Error: " + text + (text.empty() || text.back() != '\n' ? "\n" : "");
  }
  return out;
}

}  // namespace hintkit::ytt
