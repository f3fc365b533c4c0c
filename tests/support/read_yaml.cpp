// Reads one YAML file as the hint half reads YAML (yaml::load with tazuna's reading, the
// LoadOptions defaults) and prints, on one line, what go-yaml v2's Decoder would hand a Go
// program decoding each document into an interface{}, for scripts/diff_goyaml.py (which runs a
// Go program doing that on the same file):
//
//   read_yaml FILE
//   {"docs": [VALUE...], "error": null | "yaml: ...", "code": "HK001", "duplicate_key": false,
//    "collection_key": false}
//
// A VALUE is null, {"bool": true}, {"int": "-5"}, {"uint": "18446744073709551615"},
// {"float": "1e+06"} (strconv.FormatFloat 'g' -1), {"str": "text"}, {"seq": [VALUE...]} or
// {"map": [[KEY, VALUE]...]}, the pairs sorted by their key's JSON text (Go maps have no order);
// documents that are null are left out (go-yaml's decoder and the tree count empty documents
// differently: a trailing comment, a `---` alone).
// "error" is go-yaml's message for the first error the reader reports (go_yaml_message), with
// the documents read before it left out; a repeated key (go-yaml keeps the later value, the hint
// half reports HK002) and a map or list as a map key (go-yaml fails "invalid map key", the hint
// half's conversion refuses it later) are flagged instead. Exit status 0, or 2 when FILE cannot
// be read.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "fileio/fileio.h"
#include "gocompat/gocompat.h"
#include "yaml/yaml.h"

namespace {

using hintkit::yaml::Kind;
using hintkit::yaml::Node;
using nlohmann::json;

std::string text_of(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

json value_of(const Node& n, bool& collection_key) {
  switch (n.kind) {
    case Kind::kNull:
      return nullptr;
    case Kind::kBool:
      return {{"bool", n.bool_value}};
    case Kind::kInt:
      if (n.is_unsigned) return {{"uint", std::to_string(static_cast<uint64_t>(n.int_value))}};
      return {{"int", std::to_string(n.int_value)}};
    case Kind::kFloat:
      return {{"float", hintkit::gocompat::format_float(n.float_value, 'g')}};
    case Kind::kString:
      return {{"str", n.text}};
    case Kind::kArray: {
      json seq = json::array();
      for (const Node& e : n.elements) seq.push_back(value_of(e, collection_key));
      return {{"seq", seq}};
    }
    case Kind::kMap: {
      std::vector<std::pair<std::string, json>> pairs;
      for (const auto& item : n.items) {
        if (!item.key.is_scalar()) collection_key = true;
        json key = value_of(item.key, collection_key);
        std::string order = text_of(key);
        json pair = json::array({std::move(key), value_of(item.value, collection_key)});
        pairs.emplace_back(std::move(order), std::move(pair));
      }
      std::sort(pairs.begin(), pairs.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      json map = json::array();
      for (auto& p : pairs) map.push_back(std::move(p.second));
      return {{"map", map}};
    }
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: read_yaml FILE\n";
    return 2;
  }
  auto text = hintkit::fileio::read_file(argv[1]);
  if (!text.ok()) {
    std::cerr << text.error().message << "\n";
    return 2;
  }
  hintkit::diag::Diagnostics diags;
  std::vector<hintkit::yaml::Document> docs = hintkit::yaml::load(*text, "in.yaml", diags);
  json out = {{"docs", json::array()}, {"error", nullptr}, {"code", nullptr},
              {"duplicate_key", false}, {"collection_key", false}};
  for (const auto& d : diags.items()) {
    if (d.severity != hintkit::diag::Severity::kError) continue;
    if (d.code == "HK002") {
      out["duplicate_key"] = true;
      continue;
    }
    out["error"] = hintkit::yaml::go_yaml_message(d, false);
    out["code"] = d.code;
    break;
  }
  if (out["error"].is_null()) {
    bool collection_key = false;
    for (const auto& d : docs) {
      if (!d.root.is_null()) out["docs"].push_back(value_of(d.root, collection_key));
    }
    out["collection_key"] = collection_key;
  }
  std::cout << text_of(out) << "\n";
  return 0;
}
