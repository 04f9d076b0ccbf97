// libFuzzer target for the deck parser alone (md/src/deck.cpp: no MPI, no Kokkos), built with
// AddressSanitizer and UBSan. Each input is parsed as a deck, and every argument of every command
// goes through word(), number(), integer() and expect_args(). md::DeckError is the one allowed
// answer to bad input; any other exception (it escapes: std::terminate), a sanitizer report or a
// broken invariant (abort) is a finding, and libFuzzer saves the input as crash-<sha1>.
//
// Run by hand (builds into BUILD_DIR when stale, fuzzes a copy of tests/fuzz/deck_corpus):
//   tests/fuzz/run_deck_parser_fuzz.sh SECONDS BUILD_DIR
// Reproduce a finding (the script prints where it saved the input):
//   BUILD_DIR/deck_parser_fuzz BUILD_DIR/deck_fuzz_work/artifacts/crash-<sha1>
// Shrink it, then add the fixed case to tests/fuzz/deck_corpus/ as a regression seed:
//   BUILD_DIR/deck_parser_fuzz -minimize_crash=1 -runs=100000 crash-<sha1>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "md/deck.hpp"

namespace {

const std::string kFile = "fuzz.in";

[[noreturn]] void broken(const char* what, std::string_view detail) {
  std::fprintf(stderr, "deck_parser_fuzz: invariant broken: %s [%.*s]\n", what,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

void require(bool ok, const char* what, std::string_view detail = {}) {
  if (!ok) broken(what, detail);
}

// The line a DeckError names; its message must read "fuzz.in:<line>: ...".
long error_line(const md::DeckError& e) {
  const std::string_view m = e.what();
  const std::string prefix = kFile + ":";
  require(m.starts_with(prefix), "a DeckError starts with the file name and ':'", m);
  std::size_t i = prefix.size();
  long line = 0;
  // Nine digits bound the value: no overflow, and no deck here has a billion lines.
  while (i < m.size() && i < prefix.size() + 9 && std::isdigit(static_cast<unsigned char>(m[i]))) {
    line = 10 * line + (m[i++] - '0');
  }
  require(i > prefix.size() && m.substr(i).starts_with(": "), "file:line: in a DeckError", m);
  require(line >= 1, "a DeckError's line is at least 1", m);
  return line;
}

template <class F>
void must_pass(F f, const char* what) {
  try {
    f();
  } catch (const md::DeckError& e) {
    broken(what, e.what());
  }
}

template <class F>
void must_fail(F f, const md::Command& c, const char* what) {
  try {
    f();
  } catch (const md::DeckError& e) {
    require(error_line(e) == c.line, "an argument's error names its command's line", e.what());
    return;
  }
  broken(what, c.name());
}

// Lines getline() sees in `text`, an upper bound for any line number the parser names.
long physical_lines(std::string_view text) {
  return static_cast<long>(std::count(text.begin(), text.end(), '\n')) + 1;
}

void check_arguments(const md::Command& c) {
  const std::size_t n = c.args();
  for (std::size_t i = 1; i <= n; ++i) {
    require(&c.word(i, "word") == &c.words[i], "word(i) is words[i]");
    long k = 0;
    bool is_integer = false;
    try {
      k = c.integer(i, "integer");
      is_integer = true;
    } catch (const md::DeckError& e) {
      require(error_line(e) == c.line, "integer() names its command's line", e.what());
    }
    try {
      const double x = c.number(i, "number");
      require(std::isfinite(x), "number() is finite", c.words[i]);
      // Both conversions round correctly, so an integer reads as the same double.
      require(!is_integer || x == static_cast<double>(k), "integer and number agree", c.words[i]);
    } catch (const md::DeckError& e) {
      require(!is_integer, "every integer is a number", c.words[i]);
      require(error_line(e) == c.line, "number() names its command's line", e.what());
    }
  }
  must_fail([&] { c.word(n + 1, "missing"); }, c, "word() past the last argument");
  must_fail([&] { c.number(n + 1, "missing"); }, c, "number() past the last argument");
  must_fail([&] { c.integer(n + 1, "missing"); }, c, "integer() past the last argument");
  must_pass([&] { c.expect_args(n, n, "exact"); }, "expect_args(n, n)");
  must_pass([&] { c.expect_args(0, n + 2, "wide"); }, "expect_args(0, n + 2)");
  must_fail([&] { c.expect_args(n + 1, n + 4, "more"); }, c, "expect_args(n + 1, n + 4)");
  if (n > 0) must_fail([&] { c.expect_args(0, n - 1, "fewer"); }, c, "expect_args(0, n - 1)");
}

// One word written back so that the parser reads it unchanged: inside double quotes, with each
// '"' closed, given in single quotes and reopened ("a"'"'"b" is a"b).
std::string quoted(const std::string& w) {
  std::string q = "\"";
  for (const char ch : w) q += ch == '"' ? std::string("\"'\"'\"") : std::string(1, ch);
  return q + '"';
}

// The commands of `text`, or the DeckError's message; checks every command on the way, and their
// arguments when `arguments` (only for the input itself: the rereads only check the parse).
struct Parsed {
  std::vector<md::Command> commands;
  std::string error;
};

Parsed parse_checked(std::string_view text, bool arguments) {
  Parsed p;
  try {
    p.commands = md::parse_deck(text, kFile);
  } catch (const md::DeckError& e) {
    require(error_line(e) <= physical_lines(text), "a parse error names a line of the text",
            e.what());
    p.error = e.what();
    return p;
  }
  int previous = 0;
  for (const md::Command& c : p.commands) {
    require(c.file == kFile, "a command keeps its file name", c.file);
    require(!c.words.empty(), "a command has a name");
    // One command per logical line, so the lines they start on strictly increase.
    require(c.line > previous, "commands' lines are >= 1 and increase");
    require(c.line <= physical_lines(text), "a command's line is in the text");
    previous = c.line;
    for (const std::string& w : c.words) {
      require(w.find('\n') == std::string::npos, "no word spans a line break", w);
      require(w.find('\0') == std::string::npos, "no word holds a NUL byte", w);
    }
    if (arguments) check_arguments(c);
  }
  return p;
}

bool same_words(const std::vector<md::Command>& a, const std::vector<md::Command>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const md::Command& x, const md::Command& y) { return x.words == y.words; });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Parsed p = parse_checked(text, true);

  // A deck of CR-LF line ends reads as the same deck of LF ones (same commands or same error).
  if (text.find('\r') == std::string_view::npos) {
    std::string crlf;
    for (const char ch : text) crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
    const Parsed q = parse_checked(crlf, false);
    require(q.error == p.error, "CR-LF gives the same error", q.error);
    require(same_words(q.commands, p.commands), "CR-LF gives the same commands");
    for (std::size_t i = 0; i < p.commands.size(); ++i) {
      require(q.commands[i].line == p.commands[i].line, "CR-LF gives the same lines");
    }
  }

  // The commands written back, every word quoted, read back the same: one command per line, and
  // again with every word on a line of its own, continued by '&'.
  if (p.error.empty()) {
    for (const bool split : {false, true}) {
      std::string deck;
      std::vector<int> lines;  // where each command starts in `deck`
      int line = 1;
      for (const md::Command& c : p.commands) {
        lines.push_back(line);
        for (std::size_t i = 0; i < c.words.size(); ++i) {
          const bool last = i + 1 == c.words.size();
          deck += quoted(c.words[i]) + (last ? "\n" : split ? " &\n" : " ");
          line += last || split;
        }
      }
      const Parsed q = parse_checked(deck, false);
      require(q.error.empty(), "a quoted deck parses", q.error);
      require(same_words(q.commands, p.commands), "a quoted deck reads back the same words", deck);
      for (std::size_t i = 0; i < lines.size(); ++i) {
        require(q.commands[i].line == lines[i], "a quoted deck's commands start where written");
      }
    }
  }
  return 0;
}
