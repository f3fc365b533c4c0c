// ytt's yamltemplate without the generated program: most schema and data values files hold no
// code at all, only `@schema/*`, `@data/*` and `@overlay/*` annotations. For those the tree is
// built straight from the loaded YAML and only the annotation arguments go through Starlark,
// each distinct argument text compiled and run once (`#@schema/validation min=1, max=100`
// repeats on every service of a large schema). Anything unusual (an argument that fails,
// calls print, ...) falls back to the generated program (template.cpp), so errors keep their
// exact text and lines.
#include <cstdint>
#include <unordered_map>

#include "ytt/yamltemplate/yamltemplate.h"

namespace hintkit::ytt {

namespace {

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

bool data_annotations(const std::vector<yaml::Annotation>& anns) {
  for (const auto& a : anns)
    if (!data_annotation(a.name)) return false;
  return true;
}

// A pre-order numbering of a document's map/array nodes: for each, whether its subtree has no
// annotations below it (copied whole, as `static_copy` does) and where its subtree ends.
struct Shape {
  std::vector<char> plain;
  std::vector<uint32_t> end;
};

class DirectBuilder {
 public:
  DirectBuilder(const SourceFile& file, sl::Thread& thread) : file_(file), thread_(thread) {}

  // nullopt: the file needs the generated program (`docs` are then left as they were).
  // Otherwise the documents are consumed: their nodes move into the result.
  // `roots`: documents converted ahead of time (LoadedYaml::roots), taken as they are.
  std::optional<std::vector<DDoc>> build(std::vector<yaml::Document>& docs,
                                         std::vector<DPtr>& roots) {
    // Everything that can send the file to the generated program is decided here, before
    // the first node is consumed.
    std::vector<Shape> shapes(docs.size());
    const bool only_documents_annotated = annotations_only_on_documents(docs, file_.text());
    for (size_t i = 0; i < docs.size(); ++i) {
      if (!evaluable(docs[i].annotations)) return std::nullopt;
      if (only_documents_annotated) {
        // The whole tree is plain YAML: taken in one piece, without measuring it.
        if (!docs[i].root.is_scalar()) shapes[i] = Shape{.plain = {1}, .end = {1}};
        continue;
      }
      bool annotated = false;
      if (!measure(docs[i].root, shapes[i], annotated)) return std::nullopt;
    }
    std::vector<DDoc> out;
    for (size_t i = 0; i < docs.size(); ++i) {
      yaml::Document& d = docs[i];
      bool explicit_start = d.explicit_start;
      if (d.empty && d.root.is_null() && !explicit_start && d.annotations.empty()) continue;
      DDoc doc;
      shape_ = &shapes[i];
      cursor_ = 0;
      doc.span = d.span;
      // The loader's document of trailing annotations is ytt's injected end document, which
      // has no position at all.
      if (d.empty && d.root.is_null() && !explicit_start) doc.span = {};
      doc.value = i < roots.size() && roots[i] ? std::move(roots[i]) : node(d.root);
      doc.file = file_.path;
      doc.implicit = !explicit_start;
      doc.anns = annotations(d.annotations);
      // the implicit first document whose nodes all went into fragment functions
      if (doc.implicit && doc.anns.empty() && !doc.value->is_scalar() &&
          doc.value->entries.empty()) {
        continue;
      }
      out.push_back(std::move(doc));
    }
    return out;
  }

 private:
  // True when the file's text writes `#@` no more often than `docs` carry annotations of
  // their own: each annotation is one `#@` comment, so then no node below holds one (a large
  // data values file, annotated only on its `---`).
  bool annotations_only_on(const std::vector<yaml::Document>& docs) const {
    size_t on_documents = 0;
    for (const auto& d : docs) on_documents += d.annotations.size();
    const std::string_view text = file_.text();
    size_t written = 0;
    for (size_t at = text.find("#@"); at != std::string_view::npos; at = text.find("#@", at + 2)) {
      if (++written > on_documents) return false;
    }
    return true;
  }

  // Only data annotations, each with arguments that evaluate (the results are cached).
  bool evaluable(const std::vector<yaml::Annotation>& anns) {
    if (!data_annotations(anns)) return false;
    Ann scratch;
    for (const auto& a : anns) {
      std::string args = trim(a.args);
      if (!args.empty() && !arguments(args, scratch)) return false;
    }
    return true;
  }

  // Fills `shape` for `n` (pre-order over maps and arrays: whether a subtree holds no
  // annotations, and where it ends); false when an annotation needs the generated program.
  // `annotated` is set when some node below `n` carries annotations.
  bool measure(const yaml::Node& n, Shape& shape, bool& annotated) {
    if (n.is_scalar()) return true;
    size_t idx = shape.plain.size();
    shape.plain.push_back(0);
    shape.end.push_back(0);
    bool below = false;
    for (const auto& it : n.items) {
      if (!evaluable(it.annotations)) return false;
      below = below || !it.annotations.empty();
      if (!measure(it.value, shape, below)) return false;
    }
    for (const auto& el : n.elements) {
      if (!evaluable(el.annotations)) return false;
      below = below || !el.annotations.empty();
      if (!measure(el, shape, below)) return false;
    }
    shape.plain[idx] = below ? 0 : 1;
    shape.end[idx] = static_cast<uint32_t>(shape.plain.size());
    annotated = annotated || below;
    return true;
  }

  // Consumes `v` into a tree node (plain subtrees in one piece).
  DPtr node(yaml::Node& v) {
    if (v.is_scalar()) return from_yaml(std::move(v));
    size_t idx = cursor_++;
    if (shape_->plain[idx]) {
      cursor_ = shape_->end[idx];
      return from_yaml(std::move(v));
    }
    DPtr d = make_node(v.kind, v.span);
    if (v.kind == yaml::Kind::kMap) {
      d->entries.reserve(v.items.size());
      for (auto& it : v.items) {
        DEntry e;
        e.span = it.key.span;
        if (it.key.is_scalar()) {
          e.key = take_scalar(std::move(it.key));
        } else {
          e.key.kind = it.key.kind;
          e.key_node = from_yaml(std::move(it.key));
        }
        e.value = node(it.value);
        e.anns = annotations(it.annotations);
        d->entries.push_back(std::move(e));
      }
      std::vector<yaml::MapItem>().swap(v.items);
    } else {
      d->entries.reserve(v.elements.size());
      for (auto& el : v.elements) {
        DEntry e;
        e.span = item_span(el);
        e.anns = annotations(el.annotations);
        e.value = node(el);
        d->entries.push_back(std::move(e));
      }
      std::vector<yaml::Node>().swap(v.elements);
    }
    return d;
  }

  // The evaluated annotations (all arguments were evaluated by `evaluable` already).
  std::vector<Ann> annotations(const std::vector<yaml::Annotation>& src) {
    std::vector<Ann> out;
    for (const auto& a : src) {
      Ann ann;
      ann.name = a.name;
      ann.span = a.span;
      std::string args = trim(a.args);
      if (!args.empty()) (void)arguments(args, ann);
      out.push_back(std::move(ann));
    }
    return out;
  }

  // Evaluates `args` as a call's argument list into `ann`, reusing an earlier evaluation of
  // the same text. Values are shared between nodes; they are never mutated afterwards.
  bool arguments(const std::string& args, Ann& ann) {
    auto it = cache_.find(args);
    if (it == cache_.end()) {
      // print() has an effect each time it runs: leave such arguments to the program
      if (args.find("print") != std::string::npos) return false;
      Evaluated ev;
      sl::CompileOptions co;
      co.predeclared = {"__a"};
      auto prog = sl::compile(file_.path, "__a(" + args + ")", co);
      if (!prog.ok()) return false;
      sl::Predeclared p;
      p.emplace_back("__a",
                     sl::make_builtin("__a", [&ev](const sl::Call& c) -> sl::Result<sl::Value> {
                       ev.args.assign(c.args.begin(), c.args.end());
                       for (const auto& kw : c.kwargs)
                         ev.kwargs.emplace_back(std::string(kw.name), kw.value);
                       return sl::Value::none();
                     }));
      if (!thread_.exec(*prog, p).ok()) return false;
      it = cache_.emplace(args, std::move(ev)).first;
    }
    ann.args = it->second.args;
    ann.kwargs = it->second.kwargs;
    return true;
  }

  struct Evaluated {
    std::vector<sl::Value> args;
    std::vector<std::pair<std::string, sl::Value>> kwargs;
  };

  const SourceFile& file_;
  sl::Thread& thread_;
  const Shape* shape_ = nullptr;
  size_t cursor_ = 0;
  std::unordered_map<std::string, Evaluated> cache_;
};

}  // namespace

bool data_annotation(std::string_view name) {
  return name.starts_with("schema/") || name.starts_with("data/") || name.starts_with("overlay/");
}

bool annotations_only_on_documents(const std::vector<yaml::Document>& docs, std::string_view text) {
  size_t on_documents = 0;
  for (const auto& d : docs) on_documents += d.annotations.size();
  size_t written = 0;
  for (size_t at = text.find("#@"); at != std::string_view::npos; at = text.find("#@", at + 2)) {
    if (++written > on_documents) return false;
  }
  return true;
}

std::optional<std::vector<DDoc>> build_without_program(const SourceFile& file, sl::Thread& thread,
                                                       std::vector<yaml::Document>& docs,
                                                       std::vector<DPtr>& roots) {
  return DirectBuilder(file, thread).build(docs, roots);
}

}  // namespace hintkit::ytt
