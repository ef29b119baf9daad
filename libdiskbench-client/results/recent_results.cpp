// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/recent_results.hpp"

#include "text/terminal_text.hpp"
#include "types/saved_values.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <algorithm>
#include <cerrno>
#include <memory>

namespace diskbench::client {

namespace {

using GCharPtr = std::unique_ptr<gchar, decltype(&g_free)>;

} // namespace

bool same_device(const SavedValueMap& a, const SavedValueMap& b)
{
    for (const char* key : { "serial", "wwn" }) {
        const std::string left = text_of(a, key), right = text_of(b, key);
        if (!left.empty() || !right.empty())
            return left == right && !left.empty();
    }
    const std::string model_a = text_of(a, "model"), model_b = text_of(b, "model");
    if (!model_a.empty() || !model_b.empty())
        return model_a == model_b && integer_of(a, "size") == integer_of(b, "size");
    return text_of(a, "node") == text_of(b, "node") && integer_of(a, "size") == integer_of(b, "size");
}

std::string result_file_name(const SavedResult& result)
{
    const std::unique_ptr<GDateTime, decltype(&g_date_time_unref)> time(
        g_date_time_new_from_unix_local((result.finished_at_us ? result.finished_at_us : result.started_at_us) / 1000000),
        g_date_time_unref);
    std::string stamp = "result";
    if (time) {
        const GCharPtr formatted(g_date_time_format(time.get(), "%Y-%m-%dT%H-%M-%S"), g_free);
        stamp = formatted.get();
    }
    std::string node = text_of(result.device_info, "node");
    node = node.substr(node.find_last_of('/') + 1);
    if (result.target_kind == "directory")
        node = "folder-" + result.folder_name();
    std::string name = stamp + "-" + result.kind + (node.empty() ? "" : "-" + node);
    for (char& c : name)
        if (!g_ascii_isalnum(c) && c != '-' && c != '_')
            c = '_';
    return name + ".json";
}

std::string write_file_atomically(const std::string& path, const std::string& text)
{
    GError* error = nullptr;
    // g_file_set_contents writes a temporary file, fsyncs and renames it.
    if (!g_file_set_contents(path.c_str(), text.data(), static_cast<gssize>(text.size()), &error)) {
        std::string message = error->message;
        g_error_free(error);
        return message;
    }
    return {};
}

RecentResults::RecentResults(std::string directory)
    : directory_(std::move(directory))
{
    if (directory_.empty()) {
        const GCharPtr path(g_build_filename(g_get_user_data_dir(), "diskbench", "results", nullptr), g_free);
        directory_ = path.get();
    }
}

std::string RecentResults::add(const SavedResult& result, std::string& error)
{
    if (g_mkdir_with_parents(directory_.c_str(), 0700) != 0) {
        error = g_strerror(errno);
        return {};
    }
    std::string base = result_file_name(result);
    std::string path = directory_ + "/" + base;
    for (int n = 2; g_file_test(path.c_str(), G_FILE_TEST_EXISTS); ++n)
        path = directory_ + "/" + base.substr(0, base.size() - 5) + "-" + std::to_string(n) + ".json";
    error = write_file_atomically(path, result_to_json(result));
    if (!error.empty())
        return {};
    results_.insert(results_.begin(), { path, result });
    if (!result.members.empty())
        index_set_runs();
    return path;
}

std::string RecentResults::update(const std::string& path, const SavedResult& result)
{
    const auto found = std::find_if(results_.begin(), results_.end(),
                                    [&path](const RecentResult& entry) { return entry.path == path; });
    if (found == results_.end())
        return _("This result is no longer kept.");
    if (std::string error = write_file_atomically(path, result_to_json(result)); !error.empty())
        return error;
    found->result = result;
    index_set_runs();
    return {};
}

std::string RecentResults::remove(const std::string& path, std::string& contents)
{
    const auto found = std::find_if(results_.begin(), results_.end(),
                                    [&path](const RecentResult& entry) { return entry.path == path; });
    if (found == results_.end())
        return _("This result is no longer kept.");
    gchar* text = nullptr;
    gsize length = 0;
    GError* error = nullptr;
    if (!g_file_get_contents(path.c_str(), &text, &length, &error)) {
        std::string message = error->message;
        g_error_free(error);
        return message;
    }
    contents.assign(text, length);
    g_free(text);
    if (g_unlink(path.c_str()) != 0)
        return g_strerror(errno);
    results_.erase(found);
    index_set_runs();
    return {};
}

std::string RecentResults::restore(const std::string& path, const std::string& contents)
{
    if (g_file_test(path.c_str(), G_FILE_TEST_EXISTS))
        return _("A result of that name exists again.");
    if (std::string error = write_file_atomically(path, contents); !error.empty())
        return error;
    reload();
    return {};
}

namespace {

std::int64_t mtime_ns(const std::string& path)
{
    GStatBuf st {};
    if (g_stat(path.c_str(), &st) != 0)
        return -2;
    return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

} // namespace

void RecentResults::reload_if_changed()
{
    if (mtime_ns(directory_) != loaded_mtime_ns_)
        reload();
}

void RecentResults::reload()
{
    results_.clear();
    set_runs_.clear();
    loaded_mtime_ns_ = mtime_ns(directory_);
    GDir* dir = g_dir_open(directory_.c_str(), 0, nullptr);
    if (!dir)
        return;
    const std::unique_ptr<GDir, decltype(&g_dir_close)> guard(dir, g_dir_close);
    while (const char* name = g_dir_read_name(dir)) {
        if (!g_str_has_suffix(name, ".json"))
            continue;
        const std::string path = directory_ + "/" + name;
        // Anyone may have put a file here (a download, a copy): one that
        // does not load is skipped, with one warning per file and process.
        auto loaded = contract::result_from_file(path);
        if (auto* result = std::get_if<SavedResult>(&loaded))
            results_.push_back({ path, std::move(*result) });
        else if (warned_.insert(path).second)
            g_warning("skipped %s: %s", terminal_text(path).c_str(),
                      terminal_text(std::get<LoadError>(loaded).message).c_str());
    }
    std::sort(results_.begin(), results_.end(), [](const RecentResult& a, const RecentResult& b) {
        return a.result.finished_at_us > b.result.finished_at_us;
    });
    index_set_runs();
}

void RecentResults::index_set_runs()
{
    // A set's runs, each as a result of its kind: "this disk, last time"
    // may be a run of a set.
    set_runs_.clear();
    for (const RecentResult& recent : results_)
        for (const SavedResult& member : recent.result.members)
            set_runs_.push_back({ recent.path, member });
}

std::vector<const RecentResult*> RecentResults::for_kind(const std::string& kind, const SavedValueMap& device_info) const
{
    std::vector<const RecentResult*> matches;
    for (const std::vector<RecentResult>* list : { &results_, &set_runs_ })
        for (const RecentResult& recent : *list)
            if (recent.result.kind == kind)
                matches.push_back(&recent);
    std::stable_sort(matches.begin(), matches.end(), [](const RecentResult* a, const RecentResult* b) {
        return a->result.finished_at_us > b->result.finished_at_us;
    });
    std::stable_sort(matches.begin(), matches.end(), [&](const RecentResult* a, const RecentResult* b) {
        return same_device(a->result.device_info, device_info) && !same_device(b->result.device_info, device_info);
    });
    return matches;
}

} // namespace diskbench::client
