// SPDX-License-Identifier: GPL-3.0-or-later
// The app's page model of each kind (client-gtk/model/pages/): one for
// every kind the daemon has, started the way the contract says, and the
// pages, descriptions, groups and chart specs built from it; a kind the
// app lacks gets the generic page.
#include "model/benchmark_description.hpp"
#include "model/benchmark_pages.hpp"
#include "model/page_groups.hpp"
#include "model/pages/page_registry.hpp"

#include "contract/benchmark_kinds.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace diskbench;
using namespace diskbench::client;

namespace kinds = contract::kinds;

namespace {

PageTarget contract_target(std::string_view kind)
{
    if (kinds::writes_device(kind))
        return PageTarget::DeviceWrite;
    if (kinds::in_folder(kind))
        return PageTarget::Directory;
    return PageTarget::Device;
}

} // namespace

TEST_CASE("page models: one for every kind, started as the contract says", "[client-model]")
{
    std::set<std::string_view> modelled;
    for (const PageModel* model : page_models()) {
        INFO(model->kind);
        CHECK(modelled.insert(model->kind).second);
        CHECK(page_model(model->kind) == model);
        CHECK(std::find(kinds::all.begin(), kinds::all.end(), model->kind) != kinds::all.end());
        CHECK(model->target == contract_target(model->kind));
        CHECK(std::string_view(model->icon).ends_with("-symbolic"));
        // Every kind says what it does in the info popover.
        CHECK(model->describe != nullptr);
        // The kind's page is built from its model, whatever list it is in.
        const BenchmarkPage* page = benchmark_page(std::string(model->kind));
        REQUIRE(page);
        CHECK(page->model == model);
        CHECK(page->icon == model->icon);
        CHECK(page->target == model->target);
        CHECK(page->generic() == (model->views == nullptr || model->views().empty()));
        if (model->group)
            CHECK(page_group(model->kind, model->target) == *model->group);
        // A chart spec takes the model's categories (the profile's tests).
        if (model->categories)
            CHECK_FALSE(spec_for(page->views.at(0), std::string(model->kind), {}, {}, 0).categories.empty());
    }
    for (const std::string_view kind : kinds::all) {
        INFO(kind);
        CHECK(modelled.contains(kind));
    }
    // The read pages (always there) are the models that read the device, in the registry's order.
    std::vector<std::string> read_pages, read_models;
    for (const BenchmarkPage& page : benchmark_pages())
        read_pages.push_back(page.kind);
    for (const PageModel* model : page_models())
        if (model->target == PageTarget::Device)
            read_models.emplace_back(model->kind);
    CHECK(read_pages == read_models);
    CHECK(read_pages.front() == kinds::overview);
}

TEST_CASE("page models: the daemon's target wins, the model stays", "[client-model]")
{
    // An older or newer daemon may start a kind differently: the page
    // follows the daemon, the views and description stay the kind's.
    const BenchmarkPage sweep = page_for_kind(std::string(kinds::qd_sweep), "device-write", "", "");
    CHECK(sweep.target == PageTarget::DeviceWrite);
    CHECK(sweep.model == page_model(kinds::qd_sweep));
    CHECK_FALSE(sweep.views.empty());
}

TEST_CASE("page models: a kind the app lacks gets the generic page and nothing of another kind", "[client-model]")
{
    CHECK(page_model("no-such-kind") == nullptr);
    const BenchmarkPage page = page_for_kind("no-such-kind", "device", "Future", "Reads. Then more.");
    CHECK(page.model == nullptr);
    CHECK(page.generic());
    CHECK(page.title == "Future");
    CHECK(page.summary == "Reads.");
    const BenchmarkDescription none = describe_benchmark("no-such-kind", {}, "/dev/sdb", 512);
    CHECK(none.what.empty());
    CHECK(none.fio_commands.empty());
    CHECK(page_group("no-such-kind", PageTarget::Device) == PageGroup::Read);
    // No model, no x domain: a position graph spans its data.
    ChartSpec position;
    position.x_unit = Unit::Bytes;
    const PageView view { "MB/s", position, "throughput", false, {}, {}, false, {} };
    const ChartSpec spec = spec_for(view, "no-such-kind", {}, {}, 1 << 30);
    CHECK(spec.x_high == position.x_high);
    CHECK(spec.categories.empty());
}
