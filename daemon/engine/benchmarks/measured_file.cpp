// SPDX-License-Identifier: GPL-3.0-or-later
#include "measured_file.hpp"

#include <fcntl.h>

#include <algorithm>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

ParamSpec test_file_size_param()
{
    ParamSpec size = unsigned_param("file_size",
                                    "Bytes of the test file, filled before the tests (not timed). Scaled down to "
                                    "fit the free space when not given; a size given that does not fit is NoSpace.",
                                    GiB, smallest_test_file, largest_test_file);
    size.choices_bytes = { 16 * MiB, 32 * MiB, 64 * MiB, 128 * MiB, 256 * MiB, 512 * MiB, GiB,
                           2 * GiB,  4 * GiB,  8 * GiB,  16 * GiB,  32 * GiB,  64 * GiB };
    return size;
}

std::uint64_t test_file_size(DirectoryContext& ctx, std::uint32_t largest_block, std::string_view block_key)
{
    const std::uint64_t room = usable_space(ctx.facts);
    std::uint64_t size = ctx.params.unsigned_value("file_size");
    if (size > room) {
        if (ctx.params.given("file_size") || room < smallest_test_file)
            throw IoError(Failure { "error-test-file-does-not-fit",
                                    { { "target", ctx.result.target_name },
                                      { "size", format_bytes(size) },
                                      { "free", format_bytes(ctx.facts.available_bytes) },
                                      { "usable", format_bytes(room) } } },
                          ENOSPC);
        size = room;
        ctx.recorder.note({ "test-file-scaled",
                            { { "requested", format_bytes(ctx.params.unsigned_value("file_size")) },
                              { "fitted", format_bytes(room) } } });
    }
    size -= size % std::max<std::uint64_t>(test_file_fill_block, largest_block);
    if (size < largest_block)
        throw ParameterError(std::string(block_key), Failure { "error-block-above-test-file",
                                                               { { "block", format_bytes(largest_block) },
                                                                 { "size", format_bytes(size) } } });
    return size;
}

void fill_test_file(DirectoryContext& ctx, const ScratchFile& file, std::uint64_t size, const RequestBuffers* zeros)
{
    PassSpec pass;
    pass.direction = IoDirection::Write;
    pass.size = size;
    pass.block = test_file_fill_block;
    pass.seed = ctx.params.unsigned_value("seed") ^ 0x66696c6cULL; // "fill": not the tests' data
    pass.buffers = zeros;
    pass.progress_share = test_file_fill_share;
    pass.measured = false;
    sequential_pass(ctx, file.target, pass);
    // Synced: a buffered run's first read test must not find the file in
    // the page cache.
    ::posix_fadvise(file.target.fd.get(), 0, 0, POSIX_FADV_DONTNEED);
}

} // namespace diskbench::engine::benchmarks
