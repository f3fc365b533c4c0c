// Test support: compares two YAML trees node by node (kind, value, text, style, tag, spans,
// annotations, comments) and prints diagnostics with their codes and positions, for the
// differential test of the two parser paths and the differential fuzz target.
#pragma once

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "yaml/yaml.h"

namespace hintkit::yaml::testing {

inline std::string pos_str(const diag::Position& p) {
  return std::to_string(p.line) + ":" + std::to_string(p.column);
}

// Compares two trees; returns "" when equal, else where and how they differ.
class TreeDiff {
 public:
  std::string docs(const std::vector<Document>& a, const std::vector<Document>& b) {
    if (a.size() != b.size()) {
      return "document count " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
    }
    for (size_t i = 0; i < a.size(); ++i) {
      std::string at = "doc[" + std::to_string(i) + "]";
      if (a[i].empty != b[i].empty) return at + ".empty";
      if (auto d = span(at, a[i].span, b[i].span); !d.empty()) return d;
      if (auto d = notes(at, a[i].annotations, b[i].annotations, a[i].comments, b[i].comments);
          !d.empty()) {
        return d;
      }
      if (auto d = node(at + ".root", a[i].root, b[i].root); !d.empty()) return d;
    }
    return "";
  }

 private:
  static std::string span(const std::string& at, const diag::Span& a, const diag::Span& b) {
    if (a.file != b.file) return at + ".span.file";
    if (a.begin != b.begin)
      return at + ".span.begin " + pos_str(a.begin) + " vs " + pos_str(b.begin);
    if (a.end != b.end) return at + ".span.end " + pos_str(a.end) + " vs " + pos_str(b.end);
    return "";
  }
  static std::string notes(const std::string& at, const std::vector<Annotation>& aa,
                           const std::vector<Annotation>& ba, const std::vector<Comment>& ac,
                           const std::vector<Comment>& bc) {
    if (aa.size() != ba.size()) return at + ".annotations count";
    for (size_t i = 0; i < aa.size(); ++i) {
      if (aa[i].name != ba[i].name || aa[i].args != ba[i].args) return at + ".annotation text";
      if (auto d = span(at + ".annotation", aa[i].span, ba[i].span); !d.empty()) return d;
    }
    if (ac.size() != bc.size()) return at + ".comments count";
    for (size_t i = 0; i < ac.size(); ++i) {
      if (ac[i].text != bc[i].text) return at + ".comment text";
      if (auto d = span(at + ".comment", ac[i].span, bc[i].span); !d.empty()) return d;
    }
    return "";
  }
  std::string node(const std::string& at, const Node& a, const Node& b) {
    if (a.kind != b.kind) {
      return at + ".kind " + std::string(to_string(a.kind)) + " vs " +
             std::string(to_string(b.kind));
    }
    if (a.style != b.style) return at + ".style";
    if (a.text != b.text) return at + ".text \"" + a.text + "\" vs \"" + b.text + "\"";
    if (a.tag != b.tag) return at + ".tag " + a.tag + " vs " + b.tag;
    if (a.bool_value != b.bool_value || a.int_value != b.int_value ||
        a.is_unsigned != b.is_unsigned) {
      return at + ".value";
    }
    if (std::memcmp(&a.float_value, &b.float_value, sizeof(double)) != 0 &&
        !(std::isnan(a.float_value) && std::isnan(b.float_value))) {
      return at + ".float_value";
    }
    if (auto d = span(at, a.span, b.span); !d.empty()) return d;
    if (auto d = notes(at, a.annotations, b.annotations, a.comments, b.comments); !d.empty()) {
      return d;
    }
    if (a.items.size() != b.items.size()) return at + ".items count";
    for (size_t i = 0; i < a.items.size(); ++i) {
      std::string it = at + "." + a.items[i].key.text;
      if (auto d = span(it + "(item)", a.items[i].span, b.items[i].span); !d.empty()) return d;
      if (auto d = notes(it + "(item)", a.items[i].annotations, b.items[i].annotations,
                         a.items[i].comments, b.items[i].comments);
          !d.empty()) {
        return d;
      }
      if (auto d = node(it + "(key)", a.items[i].key, b.items[i].key); !d.empty()) return d;
      if (auto d = node(it, a.items[i].value, b.items[i].value); !d.empty()) return d;
    }
    if (a.elements.size() != b.elements.size()) return at + ".elements count";
    for (size_t i = 0; i < a.elements.size(); ++i) {
      if (auto d = node(at + "[" + std::to_string(i) + "]", a.elements[i], b.elements[i]);
          !d.empty()) {
        return d;
      }
    }
    return "";
  }
};

inline std::string diags_str(const diag::Diagnostics& diags) {
  std::string out;
  for (const diag::Diagnostic& d : diags.items()) {
    out += d.code + "#" + std::to_string(d.kind) + "@" + pos_str(d.span.begin) + "-" +
           pos_str(d.span.end) + " " + d.message;
    for (const auto& r : d.related) out += " [" + pos_str(r.span.begin) + " " + r.message + "]";
    out += "\n";
  }
  return out;
}

}  // namespace hintkit::yaml::testing

namespace hintkit::yaml::testing {

// The first error's code, kind, position and message ("" when there is none). Duplicate keys
// (HK002) are left out: the fast parser's path drops them when it stops at a syntax error.
inline std::string first_error_str(const diag::Diagnostics& diags) {
  for (const diag::Diagnostic& d : diags.items()) {
    if (d.severity != diag::Severity::kError || d.code == "HK002") continue;
    return d.code + "#" + std::to_string(d.kind) + "@" + pos_str(d.span.begin) + " " + d.message;
  }
  return "";
}

}  // namespace hintkit::yaml::testing
