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

// The catalogue's formats cut into parts once: a text is tried against
// each of them at every prefix and nesting level.
const std::vector<std::vector<Part>>& catalogue_parts()
{
    static const std::vector<std::vector<Part>> cut = [] {
        std::vector<std::vector<Part>> parts;
        for (const MessageFormat& format : failure_catalogue())
            parts.push_back(parts_of(format.english));
        return parts;
    }();
    return cut;
}

std::size_t literal_chars(const std::vector<Part>& parts)
{
    std::size_t count = 0;
    for (const Part& part : parts)
        count += part.literal.size();
    return count;
}

using Captures = std::vector<std::pair<std::string_view, std::string_view>>;

// The header's bound on one match's work, shared by everything one call
// of match_failure() or localized_failure() does.
class Work {
public:
    explicit Work(MatchCost& cost) : cost_(cost) {}
    // Counts one step that read `chars` characters of text; false once
    // the budget is spent, and from then on, so every level of the
    // backtracking stops where it is. Comparing and searching are
    // vectorised (memcmp, memchr): 64 characters read cost a step more.
    bool step(std::size_t chars = 0)
    {
        if (cost_.gave_up)
            return false;
        cost_.steps += 1 + chars / 64;
        if (cost_.steps > failure_match_budget)
            cost_.gave_up = true;
        return !cost_.gave_up;
    }
    [[nodiscard]] bool gave_up() const { return cost_.gave_up; }

private:
    MatchCost& cost_;
};

// text.find(literal, from), its work counted: a step for each place the
// literal's first character is found (each a comparison; a text full of
// ": " has many) and for every 64 characters skipped to get there.
std::size_t find_counted(std::string_view text, std::string_view literal, std::size_t from, Work& work)
{
    if (literal.empty())
        return from;
    for (std::size_t at = from; at < text.size(); ++at) {
        const std::size_t candidate = text.find(literal.front(), at);
        const std::size_t reached = candidate == std::string_view::npos ? text.size() : candidate;
        if (!work.step(reached - at) || candidate == std::string_view::npos)
            return std::string_view::npos;
        if (text.substr(candidate).starts_with(literal))
            return candidate;
        at = candidate;
    }
    return std::string_view::npos;
}

// Whether parts[index...] match text[at...] exactly, capturing each
// placeholder's text (shortest first, backtracking).
bool match_from(const std::vector<Part>& parts, std::size_t index, std::string_view text, std::size_t at,
                Captures& captures, Work& work)
{
    if (!work.step())
        return false;
    if (index == parts.size())
        return at == text.size();
    const Part& part = parts[index];
    if (part.name.empty())
        return work.step(part.literal.size()) && text.substr(at).starts_with(part.literal)
            && match_from(parts, index + 1, text, at + part.literal.size(), captures, work);
    const auto earlier = std::find_if(captures.begin(), captures.end(),
                                      [&](const auto& capture) { return capture.first == part.name; });
    if (earlier != captures.end())
        return work.step(earlier->second.size()) && text.substr(at).starts_with(earlier->second)
            && match_from(parts, index + 1, text, at + earlier->second.size(), captures, work);
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
            end = find_counted(text, next_literal, end, work);
            if (end == std::string_view::npos)
                return false;
        }
        captures.emplace_back(part.name, text.substr(at, end - at));
        if (match_from(parts, index + 1, text, end, captures, work))
            return true;
        captures.pop_back();
        if (work.gave_up())
            return false;
    }
    return false;
}

// The length of a "key: " at the start of `text`, or 0.
std::size_t key_prefix_length(std::string_view text, Work& work)
{
    const std::size_t colon = find_counted(text, ": ", 0, work);
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

std::optional<FailureMatch> best_match(std::string_view text, int depth, Work& work);

// A nested argument's translation is no use once the budget ran out: the
// caller (localized_failure) then returns the whole text in English.
std::string localized(std::string_view english, const std::function<const char*(const char*)>& translate,
                      const NumberText& number_text, int depth, Work& work)
{
    if (depth > max_depth)
        return std::string(english);
    const std::optional<FailureMatch> match = best_match(english, depth, work);
    // The arguments are copied and rendered: the text read twice more.
    if (!match || !work.step(2 * english.size()))
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
            args.emplace_back(std::string(part.name), localized(text, translate, number_text, depth + 1, work));
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
std::optional<FailureMatch> best_match(std::string_view text, int depth, Work& work)
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
        for (std::size_t entry = 0; entry < failure_catalogue().size(); ++entry) {
            const MessageFormat& format = failure_catalogue()[entry];
            const std::vector<Part>& parts = catalogue_parts()[entry];
            Captures captures;
            if (!match_from(parts, 0, rest, 0, captures, work))
                continue;
            // A wrapped failure's own literal text counts for the wrapper:
            // "{target}: the filesystem is full ({detail})" around a write's
            // failure outscores the write's format taking the whole
            // explanation into its {target}.
            const std::size_t own = literal_chars(parts) + prefix_chars;
            std::size_t score = own;
            for (const auto& [name, value] : captures)
                if (std::find(nested.begin(), nested.end(), name) != nested.end())
                    if (const std::optional<FailureMatch> inner = best_match(value, depth + 1, work))
                        score += inner->literal_chars;
            // On a tie, the text more of it literal here: "key: " and a
            // format beat "{target}: {detail}" around the same format.
            if (best && (score < best->literal_chars || (score == best->literal_chars && own <= best_own)))
                continue;
            best_own = own;
            // Copying the captures reads the text once more.
            if (!work.step(text.size()))
                break;
            FailureMatch match { std::string(text.substr(0, prefix_length)), format.id, {}, score };
            for (const auto& [name, value] : captures)
                match.args.emplace_back(std::string(name), value);
            best = std::move(match);
        }
        const std::size_t next = key_prefix_length(rest, work);
        if (next == 0)
            break;
        prefix_length += next;
    }
    if (work.gave_up())
        return std::nullopt;
    return best;
}

// Where a call's cost is kept when its caller does not ask for it.
MatchCost& cost_or(MatchCost* cost, MatchCost& own)
{
    return cost ? *cost : own;
}

// The length half of the header's bound.
bool too_long(std::string_view text, MatchCost& cost)
{
    const bool is = text.size() > max_matched_failure_bytes;
    cost.gave_up = cost.gave_up || is;
    return is;
}

} // namespace

std::optional<FailureMatch> match_failure(std::string_view text, MatchCost* cost)
{
    MatchCost own;
    MatchCost& used = cost_or(cost, own);
    if (too_long(text, used))
        return std::nullopt;
    Work work(used);
    return best_match(text, 0, work);
}

std::optional<std::vector<MessageArg>> match_failure_format(std::string_view format, std::string_view text,
                                                            MatchCost* cost)
{
    MatchCost own;
    MatchCost& used = cost_or(cost, own);
    if (too_long(text, used))
        return std::nullopt;
    Work work(used);
    Captures captures;
    if (!match_from(parts_of(format), 0, text, 0, captures, work))
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
                              const NumberText& number_text, MatchCost* cost)
{
    MatchCost own;
    MatchCost& used = cost_or(cost, own);
    if (too_long(english, used))
        return std::string(english);
    Work work(used);
    std::string text = localized(english, translate, number_text, 0, work);
    // Half translated is no better than the English it came from.
    return work.gave_up() ? std::string(english) : text;
}

} // namespace diskbench::contract
