#include "md/deck.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace md {

void Command::fail(const std::string& message) const {
  throw DeckError(file + ":" + std::to_string(line) + ": " + message);
}

const std::string& Command::word(std::size_t i, std::string_view what) const {
  if (i >= words.size()) fail(name() + ": missing " + std::string(what));
  return words[i];
}

double Command::number(std::size_t i, std::string_view what) const {
  const std::string& w = word(i, what);
  double v = 0;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size() || !std::isfinite(v)) {
    fail(name() + ": " + std::string(what) + " must be a finite number, got '" + w + "'");
  }
  return v;
}

long Command::integer(std::size_t i, std::string_view what) const {
  const std::string& w = word(i, what);
  long v = 0;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size()) {
    fail(name() + ": " + std::string(what) + " must be an integer, got '" + w + "'");
  }
  return v;
}

void Command::expect_args(std::size_t low, std::size_t high, std::string_view usage) const {
  if (args() < low || args() > high) {
    fail(name() + ": expected '" + std::string(usage) + "', got " + std::to_string(args()) +
         " argument" + (args() == 1 ? "" : "s"));
  }
}

namespace {

// Splits one logical line into words; `where` names it in errors.
std::vector<std::string> split_words(std::string_view s, const std::string& where) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i >= s.size() || s[i] == '#') break;
    std::string w;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) {
      if (s[i] == '"' || s[i] == '\'') {
        const char quote = s[i];
        const std::size_t close = s.find(quote, i + 1);
        if (close == std::string_view::npos) throw DeckError(where + ": unterminated quote");
        w.append(s.substr(i + 1, close - i - 1));
        i = close + 1;
      } else if (s[i] == '#') {
        break;
      } else {
        w.push_back(s[i++]);
      }
    }
    words.push_back(std::move(w));
    if (i < s.size() && s[i] == '#') break;
  }
  return words;
}

// Whether `line` ends (before blanks and outside a comment) with '&'; strips it if so. `quote` is
// the quote the lines it continues left open (0 if none) and becomes the one it leaves open: a '#'
// inside quotes starts no comment.
bool continues(std::string& line, char& quote) {
  std::size_t end = line.size();
  while (end > 0 && std::isspace(static_cast<unsigned char>(line[end - 1]))) --end;
  if (end == 0 || line[end - 1] != '&') return false;
  for (std::size_t i = 0; i + 1 < end; ++i) {
    if (quote != 0) {
      if (line[i] == quote) quote = 0;
    } else if (line[i] == '"' || line[i] == '\'') {
      quote = line[i];
    } else if (line[i] == '#') {
      return false;  // the '&' is commented out
    }
  }
  line.resize(end - 1);
  return true;
}

}  // namespace

std::vector<Command> parse_deck(std::string_view text, const std::string& file) {
  std::vector<Command> out;
  std::istringstream in{std::string(text)};
  std::string physical, logical;
  int line = 0, first = 0;
  bool open = false;
  char quote = 0;  // left open by the lines a continued command has read so far
  while (std::getline(in, physical)) {
    ++line;
    if (!physical.empty() && physical.back() == '\r') physical.pop_back();
    if (physical.find('\0') != std::string::npos) {
      throw DeckError(file + ":" + std::to_string(line) + ": not a text line (NUL byte)");
    }
    if (!open) {
      first = line;
      logical.clear();
      quote = 0;
    }
    open = continues(physical, quote);
    logical += physical;
    logical += ' ';
    if (open) continue;
    const std::string where = file + ":" + std::to_string(first);
    std::vector<std::string> words = split_words(logical, where);
    if (!words.empty()) out.push_back(Command{file, first, std::move(words)});
  }
  if (open)
    throw DeckError(file + ":" + std::to_string(first) +
                    ": '&' continues past the end of the file");
  return out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DeckError(path + ": cannot read (" + std::strerror(errno) + ")");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw DeckError(path + ": cannot read (" + std::strerror(errno) + ")");
  return s.str();
}

}  // namespace md
