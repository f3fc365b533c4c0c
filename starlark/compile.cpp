// compile(): source text to a runnable Program, through the phases in order: scan and parse
// (parser.h), ytt's template-context rewrite (template_ctx.h), resolve (resolver.h) with the
// universe of builtins (builtins.h) as the resolver's predicate.
#include "starlark/builtins.h"
#include "starlark/eval.h"
#include "starlark/parser.h"
#include "starlark/resolver.h"
#include "starlark/template_ctx.h"

namespace hintkit::starlark {

const std::string& Program::file() const { return impl->file->name; }

std::vector<std::string> Program::global_names() const {
  std::vector<std::string> out;
  for (const auto& b : impl->file->globals) out.push_back(b->name);
  return out;
}

std::vector<std::string> Program::loads() const { return impl->file->loads; }

Result<Program> compile(std::string_view file, std::string_view source,
                        const CompileOptions& options) {
  std::vector<Problem> problems;
  std::unique_ptr<File> f = parse(file, source, problems);
  if (f && problems.empty() && options.template_ops)
    insert_template_ctxs(*f, *options.template_ops);
  if (f) {
    auto is_universal = [](std::string_view name) { return universe_value(name) != nullptr; };
    resolve(*f, options.predeclared, is_universal, problems);
    for (auto& b : f->universe) b->universe = *universe_value(b->name);
  }
  if (!problems.empty()) {
    Error e;
    e.kind = ErrorKind::kCompile;
    e.message = problems.front().message;
    e.problems = std::move(problems);
    return e;
  }
  auto impl = std::make_shared<ProgramImpl>();
  impl->file = std::move(f);
  impl->predeclared = options.predeclared;
  Program p;
  p.impl = std::move(impl);
  return p;
}

Result<Module> exec_file(std::string_view file, std::string_view source,
                         const Predeclared& predeclared, ThreadOptions options) {
  CompileOptions co;
  for (const auto& [k, v] : predeclared) co.predeclared.push_back(k);
  auto p = compile(file, source, co);
  if (!p.ok()) return p.error();
  Thread t(std::move(options));
  return t.exec(*p, predeclared);
}

}  // namespace hintkit::starlark
