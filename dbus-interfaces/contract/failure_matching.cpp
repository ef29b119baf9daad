// SPDX-License-Identifier: GPL-3.0-or-later
#include "failure_matching.hpp"

#include "failure_messages.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace diskbench::contract {

namespace {

// A format cut into literal text and placeholders.
struct Part {
    std::string_view literal;
    std::string_view name; // empty for a literal
    int decimals = -1;
};

std::vector<Part> parts_of(std::string_view format)
{
    std::vector<Part> parts;
    std::size_t done = 0;
    for (std::size_t open = format.find('{'); open != std::string_view::npos; open = format.find('{', done)) {
        const std::size_t close = format.find('}', open);
        if (close == std::string_view::npos)
            throw std::invalid_argument("failure format: unclosed '{'");
        if (open > done)
            parts.push_back({ format.substr(done, open - done), {}, -1 });
        const std::string_view inside = format.substr(open + 1, close - open - 1);
        const std::size_t colon = inside.find(':');
        Part placeholder { {}, inside.substr(0, colon), -1 };
        // The spec is checked by render_message(); here only its count of decimals matters.
        if (colon != std::string_view::npos && inside.size() == colon + 4)
            placeholder.decimals = inside[colon + 2] - '0';
        parts.push_back(placeholder);
        done = close + 1;
    }
    if (done < format.size())
        parts.push_back({ format.substr(done), {}, -1 });
    return parts;
}

std::size_t literal_chars(const std::vector<Part>& parts)
{
    std::size_t count = 0;
    for (const Part& part : parts)
        count += part.literal.size();
    return count;
}

using Captures = std::vector<std::pair<std::string_view, std::string_view>>;

// Whether parts[index...] match text[at...] exactly, capturing each
// placeholder's text (shortest first, backtracking).
bool match_from(const std::vector<Part>& parts, std::size_t index, std::string_view text, std::size_t at,
                Captures& captures)
{
    if (index == parts.size())
        return at == text.size();
    const Part& part = parts[index];
    if (part.name.empty())
        return text.substr(at).starts_with(part.literal)
            && match_from(parts, index + 1, text, at + part.literal.size(), captures);
    const auto earlier = std::find_if(captures.begin(), captures.end(),
                                      [&](const auto& capture) { return capture.first == part.name; });
    if (earlier != captures.end())
        return text.substr(at).starts_with(earlier->second)
            && match_from(parts, index + 1, text, at + earlier->second.size(), captures);
    // The last part takes the rest; one before a literal ends only where
    // that literal starts (a long path with many ": " in it stays cheap).
    if (index + 1 == parts.size()) {
        if (at >= text.size())
            return false;
        captures.emplace_back(part.name, text.substr(at));
        return true;
    }
    const std::string_view next_literal = parts[index + 1].literal;
    for (std::size_t end = at + 1; end <= text.size(); ++end) {
        if (!next_literal.empty()) {
            end = text.find(next_literal, end);
            if (end == std::string_view::npos)
                return false;
        }
        captures.emplace_back(part.name, text.substr(at, end - at));
        if (match_from(parts, index + 1, text, end, captures))
            return true;
        captures.pop_back();
    }
    return false;
}

// The length of a "key: " at the start of `text`, or 0.
std::size_t key_prefix_length(std::string_view text)
{
    const std::size_t colon = text.find(": ");
    if (colon == 0 || colon == std::string_view::npos)
        return 0;
    const std::string_view key = text.substr(0, colon);
    // Parameter keys, and options such as auth.no_user_interaction.
    const bool word = std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    });
    return word ? colon + 2 : 0;
}

// At most this many prefixes ("directory: " before a key's) and nested
// failures: deeper is no text the daemon writes.
constexpr int max_depth = 3;

// A captured number, read as the daemon wrote it (C locale), or nothing.
std::optional<double> number_in(std::string_view text)
{
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<FailureMatch> best_match(std::string_view text, int depth);

std::string localized(std::string_view english, const std::function<const char*(const char*)>& translate,
                      const NumberText& number_text, int depth)
{
    if (depth > max_depth)
        return std::string(english);
    const std::optional<FailureMatch> match = best_match(english, depth);
    if (!match)
        return std::string(english);
    const MessageFormat* format = find_failure_format(match->id);
    const std::span<const std::string_view> nested = nested_failure_arguments();
    std::vector<MessageArg> args;
    for (const Part& part : parts_of(format->english)) {
        if (part.name.empty() || std::any_of(args.begin(), args.end(), [&](const MessageArg& arg) {
                return arg.name == part.name;
            }))
            continue;
        const auto captured = std::find_if(match->args.begin(), match->args.end(),
                                           [&](const MessageArg& arg) { return arg.name == part.name; });
        const std::string& text = std::get<std::string>(captured->value);
        // A {target} is a name (a device, a folder, a file) unless it is
        // "the folder": a folder called "a string" stays as it is called.
        const bool name_not_words = part.name == "target" && text != failure_english({ "error-the-folder", {} });
        if (!name_not_words && std::find(nested.begin(), nested.end(), part.name) != nested.end())
            args.emplace_back(std::string(part.name), localized(text, translate, number_text, depth + 1));
        else if (const std::optional<double> number = part.decimals >= 0 ? number_in(text) : std::nullopt)
            args.emplace_back(std::string(part.name), *number);
        else
            args.emplace_back(std::string(part.name), text);
    }
    try {
        return match->prefix + render_message(translate(format->english), args, number_text);
    } catch (const std::invalid_argument&) {
        return std::string(english); // a translation naming an argument the format lacks
    }
}

// The best match of `text` (see the header's rule), nested failures
// scored too, `depth` levels of nesting already spent.
std::optional<FailureMatch> best_match(std::string_view text, int depth)
{
    std::optional<FailureMatch> best;
    std::size_t best_own = 0; // its literal characters without nested ones
    if (depth > max_depth)
        return best;
    const std::span<const std::string_view> nested = nested_failure_arguments();
    std::size_t prefix_length = 0;
    for (int prefixes = 0; prefixes <= max_depth; ++prefixes) {
        const std::string_view rest = text.substr(prefix_length);
        // A prefix's ": " counts as literal text, as a generic format's would.
        const std::size_t prefix_chars = static_cast<std::size_t>(prefixes) * 2;
        for (const MessageFormat& format : failure_catalogue()) {
            const std::vector<Part> parts = parts_of(format.english);
            Captures captures;
            if (!match_from(parts, 0, rest, 0, captures))
                continue;
            // A wrapped failure's own literal text counts for the wrapper:
            // "{target}: the filesystem is full ({detail})" around a write's
            // failure outscores the write's format taking the whole
            // explanation into its {target}.
            const std::size_t own = literal_chars(parts) + prefix_chars;
            std::size_t score = own;
            for (const auto& [name, value] : captures)
                if (std::find(nested.begin(), nested.end(), name) != nested.end())
                    if (const std::optional<FailureMatch> inner = best_match(value, depth + 1))
                        score += inner->literal_chars;
            // On a tie, the text more of it literal here: "key: " and a
            // format beat "{target}: {detail}" around the same format.
            if (best && (score < best->literal_chars || (score == best->literal_chars && own <= best_own)))
                continue;
            best_own = own;
            FailureMatch match { std::string(text.substr(0, prefix_length)), format.id, {}, score };
            for (const auto& [name, value] : captures)
                match.args.emplace_back(std::string(name), value);
            best = std::move(match);
        }
        const std::size_t next = key_prefix_length(rest);
        if (next == 0)
            break;
        prefix_length += next;
    }
    return best;
}

} // namespace

std::optional<FailureMatch> match_failure(std::string_view text)
{
    return best_match(text, 0);
}

std::optional<std::vector<MessageArg>> match_failure_format(std::string_view format, std::string_view text)
{
    Captures captures;
    if (!match_from(parts_of(format), 0, text, 0, captures))
        return std::nullopt;
    std::vector<MessageArg> args;
    for (const auto& [name, value] : captures)
        args.emplace_back(std::string(name), value);
    return args;
}

std::size_t failure_format_literal_chars(std::string_view format)
{
    return literal_chars(parts_of(format));
}

std::string localized_failure(std::string_view english, const std::function<const char*(const char*)>& translate,
                              const NumberText& number_text)
{
    return localized(english, translate, number_text, 0);
}

} // namespace diskbench::contract
