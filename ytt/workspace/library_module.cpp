// `@ytt:library` (ytt's LibraryModule and libraryValue): library.get names a private library;
// its with_* builtins make new instances; eval, export and data_values run it as a child
// LibraryExecution over its folder, with the documents its caller addressed to it.
#include "gocompat/gocompat.h"
#include "ytt/template/template.h"
#include "ytt/workspace/workspace.h"
#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::ytt {

namespace {

// Go's %v of a key and %#v of a value that ytt holds as Go data; nullopt for what Go prints
// as a pointer or type ytt's error would quote (a map or array value, an uint64).
std::optional<std::string> go_text(const DNode& n, bool sharp) {
  switch (n.kind) {
    case yaml::Kind::kNull:
      return "<nil>";
    case yaml::Kind::kBool:
      return n.scalar.bool_value ? "true" : "false";
    case yaml::Kind::kInt:
      if (n.scalar.is_unsigned && sharp) return std::nullopt;  // %#v of an uint64: 0x...
      return n.scalar.is_unsigned ? std::to_string(static_cast<uint64_t>(n.scalar.int_value))
                                  : std::to_string(n.scalar.int_value);
    case yaml::Kind::kFloat:
      return gocompat::format_float(n.scalar.float_value, 'g');  // fmt's %v
    case yaml::Kind::kString:
      return sharp ? gocompat::quote(n.scalar.text) : n.scalar.text;
    default:
      return std::nullopt;
  }
}

// ytt's NewASTFromInterfaceWithNoPosition, for values given to library.with_data_values: each
// item made from Starlark data (not a fragment's, which keeps its file place) gets an unknown
// position that remembers `key: value` or `- value`, which type errors quote.
void remember_memory_lines(DNode& n) {
  if (!n.from_code) return;
  for (auto& e : n.entries) {
    std::optional<std::string> line;
    if (n.is_map()) {
      DNode key;
      key.kind = e.key.kind;
      key.scalar = e.key;
      auto k = e.key_node ? std::nullopt : go_text(key, false);
      auto v = go_text(*e.value, true);
      if (k && v) line = *k + ": " + *v;
    } else if (auto v = go_text(*e.value, true)) {
      line = "- " + *v;
    }
    e.span = line ? memory_span(std::move(*line)) : unprintable_memory_span();
    remember_memory_lines(*e.value);
  }
}

bool has_node_annotations(const DNode& n) {
  for (const auto& e : n.entries)
    if (!e.anns.empty() || has_node_annotations(*e.value)) return true;
  return false;
}

// ytt's LibraryRef.Matches: a step names a library by path, by alias, or by both.
bool ref_matches(const LibraryRef& step, const LibraryRef& lib) {
  if (step.alias.empty()) return step.path == lib.path;
  if (step.path.empty()) return step.alias == lib.alias;
  return step.alias == lib.alias && step.path == lib.path;
}

// ytt's UsedInLibrary: the copy of `e` that library `lib` receives (its first step taken),
// marking `e` used; null when `e` is meant for another library.
EnvelopePtr used_in_library(Envelope& e, const LibraryRef& lib) {
  if (!e.ref.empty() && !ref_matches(e.ref.front(), lib)) return nullptr;
  e.used = true;
  auto copy = std::make_shared<Envelope>(e);
  copy->used = false;
  if (copy->src.doc.value) copy->src.doc.value = deep_copy(*copy->src.doc.value);
  if (!copy->ref.empty()) copy->ref.erase(copy->ref.begin());
  return copy;
}

}  // namespace

// `@ytt:library` for the files of folder `folder`.
sl::Value LibraryModule::make(LibraryExecution& owner, const std::string& folder) {
  LibraryExecution* self = &owner;
  auto get =
      sl::make_builtin("library.get", [self, folder](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
        if (!c.args[0].is(sl::Kind::kString)) {
          return ytt_fail(c, "expected a string, but was " + std::string(c.args[0].type_name()));
        }
        auto h = std::make_shared<LibraryHandle>();
        h->owner = self;
        h->ignore_unknown_comments = self->files_.ignore_unknown_comments;
        h->strict = self->files_.strict_yaml;
        h->implicit_map_key_overrides = self->files_.implicit_map_key_overrides;
        // The run's --dangerous-data-values-disable-validation reaches every library.
        h->skip_validation =
            self->library_mode() ? self->skip_validation_ : self->settings_.disable_validation;
        h->name.path = std::string(c.args[0].as_string());
        for (const auto& kw : c.kwargs) {
          if (kw.name == "alias") {
            if (!kw.value.is(sl::Kind::kString)) {
              return ytt_fail(c, "expected a string, but was " + std::string(kw.value.type_name()));
            }
            h->name.alias = std::string(kw.value.as_string());
          } else if (kw.name == "ignore_unknown_comments" ||
                     kw.name == "implicit_map_key_overrides" || kw.name == "strict" ||
                     kw.name == "dangerous_data_values_disable_validation") {
            if (!kw.value.is(sl::Kind::kBool)) {
              return ytt_fail(c, "expected starlark.Bool, but was " + go_type_name(kw.value));
            }
            if (kw.name == "dangerous_data_values_disable_validation") {
              h->skip_validation = h->skip_validation || kw.value.as_bool();
            } else if (kw.name == "ignore_unknown_comments") {
              h->ignore_unknown_comments = kw.value.as_bool();
            } else if (kw.name == "strict") {
              h->strict = kw.value.as_bool();
            } else {
              h->implicit_map_key_overrides = kw.value.as_bool();
            }
          } else {
            return ytt_fail(c, "Unexpected kwarg '" + std::string(kw.name) + "'");
          }
        }
        if (h->name.path.starts_with("@")) {
          return ytt_fail(c, "Expected library '" + h->name.path + "' to be specified without '@'");
        }
        std::string error;
        auto dir = find_accessible_library(self->files_, folder, h->name.path, error);
        if (!dir) return ytt_fail(c, error);
        h->dir = *dir;
        if (self->values_ready_) {
          h->values = self->child_values_;
          h->schemas = self->child_schemas_;
        }
        return value(h);
      });
  return sl::make_struct("module", "library", {{"get", get}});
}

// ytt's libraryValue: immutable; with_* return new instances.
sl::Value LibraryModule::value(HandlePtr h) {
  const std::string desc =
      h->name.alias.empty() ? h->name.path : h->name.path + "~" + h->name.alias;
  auto with_values =
      sl::make_builtin("library.with_data_values", [h](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
        bool plain = false;
        for (const auto& kw : c.kwargs) {
          if (kw.name != "plain")
            return ytt_fail(c, "invalid argument name: " + std::string(kw.name));
          if (!kw.value.is(sl::Kind::kBool)) {
            return ytt_fail(c, "expected starlark.Bool, but was " + go_type_name(kw.value));
          }
          plain = kw.value.as_bool();
        }
        auto e = std::make_shared<Envelope>();
        e->src.doc.value = from_starlark(c.args[0], diag::Span{});
        remember_memory_lines(*e->src.doc.value);
        if (plain && has_node_annotations(*e->src.doc.value)) {
          return ytt_fail(c,
                          "Expected to be plain YAML, having no annotations (hint: remove comments "
                          "starting with `#@`)");
        }
        e->src.plain = plain;
        e->src.missing_ok = plain;
        e->src.in_memory = true;
        auto next = std::make_shared<LibraryHandle>(*h);
        next->values.push_back(std::move(e));
        return value(next);
      });
  auto with_schema = sl::make_builtin(
      "library.with_data_values_schema", [h](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
        auto e = std::make_shared<Envelope>();
        // ytt makes YAML nodes of it (NewASTFromInterface)
        e->src.doc.value = yaml_copy(*from_starlark(c.args[0], diag::Span{}));
        auto next = std::make_shared<LibraryHandle>(*h);
        next->schemas.push_back(std::move(e));
        return value(next);
      });
  auto eval =
      sl::make_builtin("library.eval", [h, desc](const sl::Call& c) -> sl::Result<sl::Value> {
        if (!c.args.empty()) return ytt_fail(c, "expected no arguments");
        std::vector<DDoc> docs;
        auto err = h->owner->run_library(
            c, *h, "Evaluating library '" + desc + "': ", [&](LibraryExecution& lib) {
              lib.evaluate_documents();
              lib.check_library_documents_used();
              for (auto& set : lib.output_)
                for (auto& d : set) docs.push_back(std::move(d));
            });
        if (err) return *err;
        return make_docset_fragment(std::move(docs));
      });
  auto data_values = sl::make_builtin(
      "library.data_values", [h, desc](const sl::Call& c) -> sl::Result<sl::Value> {
        if (!c.args.empty()) return ytt_fail(c, "expected no arguments");
        sl::Value out;
        auto err = h->owner->run_library(
            c, *h, "Exporting from library '" + desc + "': ", [&](LibraryExecution& lib) {
              out = to_struct_value(lib.data_values_.value);
            });
        if (err) return *err;
        return out;
      });
  auto export_ =
      sl::make_builtin("library.export", [h, desc](const sl::Call& c) -> sl::Result<sl::Value> {
        const std::string prefix = "Exporting from library '" + desc + "': ";
        if (c.args.size() != 1) return ytt_fail(c, prefix + "expected exactly one argument");
        if (!c.args[0].is(sl::Kind::kString)) {
          return ytt_fail(
              c, prefix + "expected a string, but was " + std::string(c.args[0].type_name()));
        }
        const std::string symbol(c.args[0].as_string());
        std::string path;
        for (const auto& kw : c.kwargs) {
          if (kw.name != "path") {
            return ytt_fail(c,
                            prefix + "Unexpected keyword argument '" + std::string(kw.name) + "'");
          }
          if (!kw.value.is(sl::Kind::kString)) {
            return ytt_fail(
                c, prefix + "expected a string, but was " + std::string(kw.value.type_name()));
          }
          path = std::string(kw.value.as_string());
        }
        if (symbol.starts_with("_")) {
          return ytt_fail(c,
                          prefix + "Symbols starting with '_' are private, and cannot be exported");
        }
        std::vector<std::pair<std::string, sl::Value>> found;
        auto err = h->owner->run_library(c, *h, prefix, [&](LibraryExecution& lib) {
          lib.evaluate_documents();
          lib.check_library_documents_used();
          for (const auto& ex : lib.exports_) {
            auto v = ex.globals.get(symbol);
            if (v && (path.empty() || path == ex.path)) found.emplace_back(ex.path, *v);
          }
        });
        if (err) return *err;
        if (found.empty()) {
          return ytt_fail(
              c, prefix + "Expected to find exported symbol '" + symbol + "', but did not");
        }
        if (found.size() > 1) {
          std::string paths;
          for (const auto& [p, v] : found) paths += (paths.empty() ? "" : ", ") + p;
          return ytt_fail(c, prefix + "Expected to find exactly one exported symbol '" + symbol +
                                 "', but found multiple across files: " + paths);
        }
        return found[0].second;
      });
  return sl::make_struct("module", "library",
                         {{"with_data_values", with_values},
                          {"with_data_values_schema", with_schema},
                          {"eval", eval},
                          {"export", export_},
                          {"data_values", data_values}});
}

// Runs library `h` up to its final data values, then `then` on it. A failure comes back as
// the builtin's error: "NAME: PREFIX..." (a template's failure nested as its reason).
std::optional<sl::Error> LibraryExecution::run_library(
    const sl::Call& c, const LibraryHandle& h, const std::string& prefix,
    const std::function<void(LibraryExecution&)>& then) {
  std::vector<EnvelopePtr> values, after, schemas;
  bool crash = false;
  for (const auto& e : h.schemas) {
    if (auto copy = used_in_library(*e, h.name)) {
      schemas.push_back(std::move(copy));
    } else {
      crash = true;  // ytt passes a nil schema on and dereferences it
    }
  }
  std::vector<EnvelopePtr> children;
  for (const auto& e : h.values) {
    auto copy = used_in_library(*e, h.name);
    if (!copy) continue;
    if (!copy->ref.empty()) {
      children.push_back(std::move(copy));
    } else {
      (copy->after_library_module ? after : values).push_back(std::move(copy));
    }
  }
  // Its own values (after_library_module last), then those for its libraries.
  for (auto* more : {&after, &children})
    for (auto& e : *more) values.push_back(std::move(e));
  auto lib = std::make_shared<LibraryExecution>(*this, h.dir, std::move(values), std::move(schemas),
                                                h.skip_validation);
  lib->schema_crash_ = crash;
  lib->repeated_keys_ = repeated_keys_;  // flag values for the library were read here
  lib->files_.ignore_unknown_comments = h.ignore_unknown_comments;
  lib->files_.strict_yaml = h.strict;
  lib->files_.implicit_map_key_overrides = h.implicit_map_key_overrides;
  libraries_.push_back(lib);
  const std::string head = std::string(c.name) + ": " + prefix;
  try {
    lib->classify_files();
    lib->build_schema();
    lib->merge_values({});
    if (!lib->skip_validation_) lib->validate();
    lib->refuse_repeated_keys();
    lib->files_.data_values = lib->data_values_.value;
    then(*lib);
    return std::nullopt;
  } catch (const Unsupported& u) {
    root_->files_.unsupported = u.feature;
    return sl::fail_error(head + u.feature);
  } catch (const TemplateError& e) {
    if (!lib->files_.unsupported.empty()) root_->files_.unsupported = lib->files_.unsupported;
    for (const auto& [k, v] : lib->files_.compiled) files_.compiled[k] = v;
    if (e.error && !e.compile) {
      sl::Error out = sl::fail_error(head + e.head);
      out.cause = e.error;
      return out;
    }
    return sl::fail_error(head + e.text);
  } catch (const OverlayError& e) {
    if (e.unsupported) root_->files_.unsupported = e.message;
    return sl::fail_error(head + e.message);
  } catch (const YttError& e) {
    if (!lib->files_.unsupported.empty()) root_->files_.unsupported = lib->files_.unsupported;
    std::string text = e.message();
    if (text.ends_with('\n')) text.pop_back();  // the nesting ends its last line itself
    return sl::fail_error(head + text);
  }
}

}  // namespace hintkit::ytt
