// ytt's YAML reading for templates: one file's text to YAML documents as ytt's go-yaml fork
// reads them, with what templating needs to know ahead (markers, plain comments, collection
// keys), plain data converted to engine nodes where it was read.
#include <array>

#include "ytt/yamltemplate/yamltemplate.h"

namespace hintkit::ytt {

yaml::LoadOptions ytt_yaml_options(bool strict) {
  yaml::LoadOptions options;
  options.ytt_merge_keys = true;
  options.ytt_parser = true;
  options.strict = strict;
  return options;
}

namespace {

// Whether templating `y` can only take each document's tree as it is (DirectBuilder's
// `annotations_only_on` with nothing that would send the file to the generated program): no
// problems, no plain comments, and every `#@` in the text an argument-less data annotation
// on a document.
bool plain_below_documents(const LoadedYaml& y, std::string_view text) {
  if (!y.diags.items().empty() || y.has_plain_hash) return false;
  for (const auto& d : y.docs) {
    for (const auto& a : d.annotations) {
      if (!data_annotation(a.name) || a.args.find_first_not_of(" \t") != std::string::npos) {
        return false;
      }
    }
  }
  return annotations_only_on_documents(y.docs, text);
}

}  // namespace

namespace {

bool holds_array(const yaml::Node& n) {
  if (n.kind == yaml::Kind::kArray) return true;
  for (const auto& it : n.items) {
    if (holds_array(it.key) || holds_array(it.value)) return true;
  }
  return false;
}

}  // namespace

bool has_array_in_key(const yaml::Node& n) {
  for (const auto& it : n.items) {
    if ((!it.key.is_scalar() && holds_array(it.key)) || has_array_in_key(it.value)) return true;
  }
  for (const auto& e : n.elements) {
    if (has_array_in_key(e)) return true;
  }
  return false;
}

// ytt's templating indexes a map's keys in a Go map, and hashing a map or array key crashes it.
bool has_collection_key(const yaml::Node& n) {
  for (const auto& it : n.items) {
    if (!it.key.is_scalar() || has_collection_key(it.value)) return true;
  }
  for (const auto& e : n.elements)
    if (has_collection_key(e)) return true;
  return false;
}

LoadedYaml load_yaml(std::string path, std::string_view text, bool strict, bool split,
                     const std::function<void()>& after_split) {
  LoadedYaml out;
  out.path = std::move(path);
  yaml::LoadOptions options = ytt_yaml_options(strict);
  options.keep_comments = true;        // a template rejects plain `#` comments
  options.keep_duplicate_keys = true;  // a template judges repeated keys after evaluation
  out.has_marker = text.find("#@") != std::string_view::npos;
  out.has_plain_hash = false;
  for (size_t at = text.find('#'); at != std::string_view::npos; at = text.find('#', at + 1)) {
    if (at + 1 == text.size() || (text[at + 1] != '@' && text[at + 1] != '!')) {
      out.has_plain_hash = true;
      break;
    }
  }
  // Only `?`, a flow map or a flow list (`[a]: b`) can write a collection key.
  // (Three memchr passes: find_first_of calls memchr once per byte of the text.)
  const bool keys_may_be_collections = text.find('?') != std::string_view::npos ||
                                       text.find('{') != std::string_view::npos ||
                                       text.find('[') != std::string_view::npos;
  // A text without `#` has no annotation: read in halves, it is plain below its documents
  // (`plain_below_documents`) as soon as both halves read without a problem, so each half's
  // roots are converted on the thread that read it.
  struct Half {
    std::vector<DPtr> roots;
    bool has_collection_key = false;
    bool has_array_key = false;
  };
  std::array<Half, 2> halves;
  auto convert_half = [&](size_t h, std::vector<yaml::Document>& docs) {
    Half& half = halves[h];
    half.roots.resize(docs.size());
    for (size_t i = 0; i < docs.size(); ++i) {
      yaml::Node& root = docs[i].root;
      if (keys_may_be_collections) {
        half.has_collection_key = half.has_collection_key || has_collection_key(root);
        half.has_array_key = half.has_array_key || has_array_in_key(root);
      }
      if (!root.is_scalar()) half.roots[i] = from_yaml(std::move(root));
    }
  };
  bool halves_used = false;
  if (split && !out.has_marker && !out.has_plain_hash) {
    out.docs = yaml::load_split(text, out.path, out.diags, options, after_split, convert_half,
                                &halves_used);
  } else if (split) {
    out.docs = yaml::load_split(text, out.path, out.diags, options, after_split);
  } else {
    out.docs = yaml::load(text, out.path, out.diags, options);
  }
  if (halves_used) {
    out.roots = std::move(halves[0].roots);
    out.roots.reserve(out.docs.size());
    for (auto& r : halves[1].roots) out.roots.push_back(std::move(r));
    out.has_collection_key = halves[0].has_collection_key || halves[1].has_collection_key;
    out.has_array_key = halves[0].has_array_key || halves[1].has_array_key;
    return out;
  }
  if (keys_may_be_collections) {
    for (const auto& d : out.docs) {
      out.has_collection_key = out.has_collection_key || has_collection_key(d.root);
      out.has_array_key = out.has_array_key || has_array_in_key(d.root);
    }
  }
  if (plain_below_documents(out, text)) {
    out.roots.resize(out.docs.size());
    for (size_t i = 0; i < out.docs.size(); ++i) {
      yaml::Node& root = out.docs[i].root;
      if (!root.is_scalar()) out.roots[i] = from_yaml(std::move(root));
    }
  }
  return out;
}

}  // namespace hintkit::ytt
