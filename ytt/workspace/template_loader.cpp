// `load()` as ytt's workspace.TemplateLoader resolves it: `@ytt:name` from the module table,
// `@name:path` a file of private library `name` (found from its `_ytt_lib` folder), anything
// else a file of the file set relative to the loading file's folder ('/...' from the root of
// the library being run), which must be a library file (`.star` or `x.lib.yml`).
#include <algorithm>

#include "ytt/texttemplate/texttemplate.h"
#include "ytt/workspace/workspace.h"
#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::ytt {

namespace {

sl::Error cannot_load(std::string_view module, const std::string& why) {
  return sl::fail_error("cannot load " + std::string(module) + ": " + why);
}

sl::Result<sl::Module> exec_starlark(Files& files, sl::Thread& thread, const SourceFile& f,
                                     std::string_view module) {
  auto wrap = [&](const sl::Error& inner) {
    sl::Error e = cannot_load(module, "Evaluating starlark template: ");
    e.cause = std::make_shared<sl::Error>(inner);
    return e;
  };
  ++*files.templates_evaluated;  // ytt gives each loaded .star file an instruction set too
  // Each load runs the file anew, but its text does not change: compile it once.
  auto known = files.star_programs.find(f.path);
  if (known == files.star_programs.end()) {
    auto prog = sl::compile(f.path, f.text());
    if (!prog.ok()) return wrap(prog.error());
    known = files.star_programs.emplace(f.path, *prog).first;
  }
  const sl::Program prog = known->second;
  auto res = [&] {
    Files::Running running(files, f.path);
    return thread.exec(prog);
  }();
  if (!res.ok()) return wrap(res.error());
  files.module_cache[f.path] = *res;
  return *res;
}

}  // namespace

sl::Result<sl::Module> load_module(Files& files, sl::Thread& thread, std::string_view module) {
  const std::string folder =
      files.running.empty() ? files.library_root : folder_of(files.running.back());
  if (!module.empty() && module[0] == '@') {
    size_t colon = module.find(':', 1);
    if (colon == std::string_view::npos) {
      return cannot_load(module,
                         "Expected library path to be in format '@name:path' e.g. "
                         "'@github.com/vmware-tanzu/test:test.star' or '@ytt:base64'");
    }
    std::string_view lib = module.substr(1, colon - 1), name = module.substr(colon + 1);
    if (lib == "ytt") {
      if (auto m = ytt_module(files, name, folder)) return *m;
      if (!files.unsupported.empty()) return cannot_load(module, files.unsupported);
      return cannot_load(module, "builtin ytt library does not have module '" + std::string(name) +
                                     "' (hint: is it available in newer version of ytt?)");
    }
    // `@name:path`: a file of private library `name`, found from that library's root (which
    // is then the root of '/' paths), evaluated with the loading library's data values.
    std::string error;
    auto lib_dir = find_accessible_library(files, folder, lib, error);
    if (!lib_dir) return cannot_load(module, error);
    const std::string saved_root = files.library_root;
    files.library_root = *lib_dir;
    const SourceFile* f = find_file_from(files, *lib_dir, name, error);
    auto result = f ? load_found(files, thread, *f, module) : cannot_load(module, error);
    files.library_root = saved_root;
    return result;
  }
  std::string error;
  const SourceFile* f = find_file_from(files, folder, module, error);
  if (!f) return cannot_load(module, error);
  return load_found(files, thread, *f, module);
}

sl::Result<sl::Module> load_found(Files& files, sl::Thread& thread, const SourceFile& file,
                                  std::string_view module) {
  const SourceFile* f = &file;
  if (!is_library_file(*f)) {
    return cannot_load(module, "Expected file '" + f->path +
                                   "' to be a library file, but was not (hint: library filename "
                                   "must end with '.lib.yml' or '.star'; use data.read(...) for "
                                   "loading non-templated file contents)");
  }
  // No cache: like ytt, every load() evaluates the file anew (its prints run again, its templates
  // take new numbers). A file loading itself, directly or through others: ytt recurses until
  // Go's stack overflows
  // (a crash, exit 2); hintkit says so instead.
  if (std::find(files.running.begin(), files.running.end(), f->path) != files.running.end()) {
    files.unsupported = "a load cycle through " + f->path + " (ytt crashes on it)";
    return cannot_load(module, files.unsupported);
  }
  if (!f->read_error.empty()) return cannot_load(module, f->read_error);
  switch (file_type(*f)) {
    case FileType::kStarlark:
      return exec_starlark(files, thread, *f, module);
    case FileType::kYaml: {
      // A library file is parsed only when loaded: its syntax error names it as ytt does.
      diag::Diagnostics diags;
      (void)yaml::load(f->text(), f->path, diags, ytt_yaml_options(files.strict_yaml));
      for (const auto& d : diags.items()) {
        if (d.severity == diag::Severity::kError && d.code != "HK002") {
          return cannot_load(module, "Unmarshaling YAML template '" + f->path +
                                         "': " + go_yaml_error(d, true));
        }
      }
      try {
        (void)eval_template(files, *f, thread);
      } catch (const TemplateError& e) {
        return cannot_load(module, e.text);
      }
      return files.module_cache[f->path];
    }
    case FileType::kText:
      try {
        (void)eval_text_template(files, *f, thread);
      } catch (const TemplateError& e) {
        return cannot_load(module, e.text);
      }
      return files.module_cache[f->path];
    case FileType::kUnknown:
      break;
  }
  return cannot_load(module, "File '" + f->path + "' type is not a known");
}

}  // namespace hintkit::ytt
