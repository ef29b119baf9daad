// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/run_set.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/job_states.hpp"
#include "contract/kinds/run_set.hpp"
#include "text/headline_text.hpp"
#include "text/kind_titles.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cerrno>
#include <memory>

namespace diskbench::client {

namespace run_set_keys = contract::kinds::keys::run_set;

namespace {

namespace kinds = contract::kinds;

constexpr const char* custom_group = "Custom";
constexpr const char* kinds_key = "Kinds";

std::string config_path()
{
    const std::unique_ptr<gchar, decltype(&g_free)> path(
        g_build_filename(g_get_user_config_dir(), "diskbench", "run-sets.conf", nullptr), g_free);
    return path.get();
}

std::vector<std::string> split_kinds(const std::string& list)
{
    std::vector<std::string> parts;
    std::string part;
    for (const char c : list + ",") {
        if (c != ',') {
            if (c != ' ')
                part += c;
            continue;
        }
        if (!part.empty())
            parts.push_back(part);
        part.clear();
    }
    return parts;
}

std::string joined(const std::vector<std::string>& parts, const char* separator)
{
    std::string text;
    for (const std::string& part : parts)
        text += (text.empty() ? "" : separator) + part;
    return text;
}

const BenchmarkInfo* offered_kind(const std::vector<BenchmarkInfo>& offered, const std::string& kind)
{
    const auto found = std::find_if(offered.begin(), offered.end(), [&](const BenchmarkInfo& i) { return i.kind == kind; });
    return found == offered.end() ? nullptr : &*found;
}

} // namespace

const std::vector<RunSetPreset>& run_set_presets()
{
    static const std::vector<RunSetPreset> presets {
        /* TRANSLATORS: a set of benchmarks run one after another: the overview and CrystalDiskMark's tests */
        { "quick", N_("Quick"), { kinds::overview, kinds::profile } },
        /* TRANSLATORS: a set of benchmarks run one after another: every read benchmark but the surface map */
        { "full-read", N_("Full read"),
          { kinds::seek, kinds::random, kinds::sequential, kinds::block, kinds::profile, kinds::qd_sweep } },
    };
    return presets;
}

std::vector<std::string> run_set_candidates(const std::vector<BenchmarkInfo>& offered)
{
    std::vector<std::string> candidates;
    for (const BenchmarkInfo& info : offered)
        if (info.target == "device")
            candidates.push_back(info.kind);
    return candidates;
}

std::variant<RunSetPlan, std::string> plan_run_set(const std::string& name,
                                                   const std::vector<BenchmarkInfo>& offered,
                                                   const std::vector<std::string>& custom)
{
    RunSetPlan plan { name, {} };
    const auto& presets = run_set_presets();
    if (const auto preset = std::find_if(presets.begin(), presets.end(), [&](const RunSetPreset& p) { return p.name == name; });
        preset != presets.end()) {
        for (const std::string_view kind : preset->kinds)
            plan.kinds.emplace_back(kind);
    } else if (name == custom_run_set) {
        plan.kinds = custom;
        if (plan.kinds.empty())
            return std::string(_("No custom set is kept yet: choose its benchmarks in the app's Run a Set, or "
                                 "name them, separated by commas (seek,random)."));
    } else {
        plan.kinds = split_kinds(name);
    }
    if (plan.kinds.empty())
        return std::string(_("A set needs at least one benchmark."));
    for (std::size_t i = 0; i < plan.kinds.size(); ++i) {
        const std::string& kind = plan.kinds[i];
        if (std::find(plan.kinds.begin(), plan.kinds.begin() + static_cast<std::ptrdiff_t>(i), kind)
            != plan.kinds.begin() + static_cast<std::ptrdiff_t>(i))
            return printf_text(_("“%s” is named twice in the set."), kind.c_str());
        const BenchmarkInfo* info = offered_kind(offered, kind);
        if (!info)
            return printf_text(_("There is no benchmark “%s” (the sets: quick, full-read, custom, or benchmarks "
                                 "separated by commas)."),
                               kind.c_str());
        if (info->target != "device")
            return printf_text(_("“%s” cannot be in a set: a set only reads a device; run writes and folder "
                                 "benchmarks on their own."),
                               kind.c_str());
    }
    return plan;
}

std::vector<std::string> run_set_custom_kinds()
{
    GKeyFile* file = g_key_file_new();
    std::vector<std::string> kinds;
    if (g_key_file_load_from_file(file, config_path().c_str(), G_KEY_FILE_NONE, nullptr)) {
        gsize count = 0;
        if (gchar** list = g_key_file_get_string_list(file, custom_group, kinds_key, &count, nullptr)) {
            for (gsize i = 0; i < count; ++i)
                kinds.emplace_back(list[i]);
            g_strfreev(list);
        }
    }
    g_key_file_free(file);
    return kinds;
}

std::string keep_run_set_custom_kinds(const std::vector<std::string>& kinds)
{
    const std::string path = config_path();
    const std::unique_ptr<gchar, decltype(&g_free)> folder(g_path_get_dirname(path.c_str()), g_free);
    if (g_mkdir_with_parents(folder.get(), 0700) != 0)
        return printf_text(_("Could not create %s: %s"), folder.get(), g_strerror(errno));
    GKeyFile* file = g_key_file_new();
    g_key_file_load_from_file(file, path.c_str(), G_KEY_FILE_KEEP_COMMENTS, nullptr);
    std::vector<const gchar*> list;
    for (const std::string& kind : kinds)
        list.push_back(kind.c_str());
    g_key_file_set_string_list(file, custom_group, kinds_key, list.data(), list.size());
    GError* error = nullptr;
    std::string message;
    if (!g_key_file_save_to_file(file, path.c_str(), &error)) {
        message = error->message;
        g_error_free(error);
    }
    g_key_file_free(file);
    return message;
}

SavedResult run_set_result(const RunSetPlan& plan, unsigned pause_s, std::vector<SavedResult> members)
{
    SavedResult set;
    set.kind = std::string(kinds::run_set);
    const SavedResult& first = members.front();
    set.backend = first.backend;
    set.target_kind = first.target_kind;
    set.target = first.target;
    set.device_info = first.device_info;
    set.started_at_us = first.started_at_us;
    set.finished_at_us = members.back().finished_at_us;
    set.parameters["set"] = plan.name;
    set.parameters["kinds"] = joined(plan.kinds, ",");
    set.parameters["pause_s"] = static_cast<std::int64_t>(pause_s);
    const auto finished = std::count_if(members.begin(), members.end(), [](const SavedResult& member) {
        return member.state == contract::job_states::finished;
    });
    set.summary[std::string(run_set_keys::benchmarks)] = static_cast<std::int64_t>(plan.kinds.size());
    set.summary[std::string(run_set_keys::finished)] = static_cast<std::int64_t>(finished);
    set.state = static_cast<std::size_t>(finished) == plan.kinds.size() ? std::string(contract::job_states::finished)
                                                                         : std::string(contract::job_states::cancelled);
    set.members = std::move(members);
    return set;
}

std::string run_set_title(const SavedResult& result)
{
    const std::string name = text_of(result.parameters, "set");
    for (const RunSetPreset& preset : run_set_presets())
        if (preset.name == name)
            /* TRANSLATORS: %s is a set's name: "Quick set", "Full read set" */
            return printf_text(_("%s set"), _(preset.title));
    if (name == custom_run_set)
        return _("Custom set");
    std::vector<std::string> titles;
    for (const SavedResult& member : result.members)
        titles.push_back(kind_title_text(member.kind));
    /* TRANSLATORS: %s lists the benchmarks of a set: "Set of Seek, Random" */
    return printf_text(_("Set of %s"), joined(titles, ", ").c_str());
}

std::string run_set_headline(const SavedResult& result)
{
    std::vector<std::string> parts;
    for (const SavedResult& member : result.members) {
        const std::string figure = headline_text(member.kind, member.summary, 1);
        parts.push_back(kind_title_text(member.kind) + (figure == "–" ? "" : " " + figure));
    }
    return parts.empty() ? std::string("–") : joined(parts, "  ·  ");
}

std::string kept_result_headline(const SavedResult& result)
{
    return result.members.empty() ? headline_text(result.kind, result.summary) : run_set_headline(result);
}

} // namespace diskbench::client
