"""An edit as a plan of jobs (`segue concat --plan`), run by GNU parallel and by a real Dask cluster
(`python -m segue.distributed`) on this machine, joined, and compared with the one-process
`segue concat` render of the same edit: the same decoded frames (framemd5), the same decoded
sound, the same length. The cluster is a `dask scheduler` and two `dask worker` processes started
here on 127.0.0.1; their PATH holds a `segue` wrapper that fails chosen attempts."""
import collections
import hashlib
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

FPS = 30
CLIP_SECONDS = 2
# The edit's options, for the one-process render and the plan alike: --job-seconds decides where
# segments start their closed GOPs, so it is part of what the encoder makes.
OPTIONS = ["--transition", "fade:0.5", "--preset", "veryfast", "--crf", "28", "--job-seconds", "1"]


def tool(name):
    path = shutil.which(name)
    if path is None:
        pytest.fail("%s is not installed (scripts/install-deps.sh installs it)" % name)
    return path


def run(command, timeout=300, **kwargs):
    return subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, **kwargs)


def checked(command, **kwargs):
    result = run(command, **kwargs)
    assert result.returncode == 0, "%s: exit %d\n%s" % (" ".join(map(str, command)), result.returncode,
                                                         result.stderr)
    return result


def make_clip(path, size, frequency):
    """A 2 s testsrc2 clip (H.264, 1 s keyframe interval) with a sine tone (AAC)."""
    checked([tool("ffmpeg"), "-v", "error", "-y",
             "-f", "lavfi", "-i", "testsrc2=size=%s:rate=%d:duration=%d" % (size, FPS, CLIP_SECONDS),
             "-f", "lavfi", "-i", "sine=frequency=%d:sample_rate=48000:duration=%d" % (frequency, CLIP_SECONDS),
             "-c:v", "libx264", "-preset", "ultrafast", "-g", str(FPS), "-pix_fmt", "yuv420p",
             "-c:a", "aac", "-shortest", path])
    return path


def signature(path):
    """What must be equal: the decoded video frame by frame (framemd5), the decoded sound (MD5 of
    48 kHz stereo s16le) and the container's duration in seconds."""
    frames = checked([tool("ffmpeg"), "-v", "error", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"]).stdout
    sound = subprocess.run([tool("ffmpeg"), "-v", "error", "-i", str(path), "-map", "0:a:0", "-f", "s16le",
                            "-ac", "2", "-ar", "48000", "-"], capture_output=True, timeout=300)
    assert sound.returncode == 0, sound.stderr.decode()
    probe = checked([tool("ffprobe"), "-v", "error", "-show_entries", "format=duration", "-of", "json", path]).stdout
    duration = float(json.loads(probe)["format"]["duration"])
    frame_lines = [line for line in frames.splitlines() if line and not line.startswith("#")]
    return frames, len(frame_lines), hashlib.md5(sound.stdout).hexdigest(), len(sound.stdout), duration


def assert_same_render(joined, reference):
    ours, theirs = signature(joined), signature(reference)
    assert ours[1] == theirs[1], "frame count %d, one-process render %d" % (ours[1], theirs[1])
    assert ours[0] == theirs[0], "decoded frames differ from the one-process render"
    assert ours[3] == theirs[3], "sound length %d bytes, one-process render %d" % (ours[3], theirs[3])
    assert ours[2] == theirs[2], "decoded sound differs from the one-process render"
    assert abs(ours[4] - theirs[4]) < 1e-3, "duration %.6f s, one-process render %.6f s" % (ours[4], theirs[4])


Edit = collections.namedtuple("Edit", "inputs options reference")


@pytest.fixture(scope="module")
def edits(tmp_path_factory, segue_cli):
    """Two edits of three clips and their one-process renders: "mixed" (one clip of another size,
    so the edit is a full render, split into segments) and "smart" (`--smart` over clips with the
    same H.264 parameters: copied and rendered stretches)."""
    root = tmp_path_factory.mktemp("edit")
    a, b, c, d = (make_clip(root / "a.mp4", "320x240", 440), make_clip(root / "b.mp4", "256x192", 660),
                  make_clip(root / "c.mp4", "320x240", 550), make_clip(root / "d.mp4", "320x240", 770))
    made = {}
    for name, inputs, options in (("mixed", [a, b, c], OPTIONS), ("smart", [a, c, d], OPTIONS + ["--smart"])):
        reference = root / ("%s.mp4" % name)
        result = checked([segue_cli, "concat", *inputs, "-o", reference, *options])
        assert "note:" not in result.stderr, result.stderr   # --smart copies
        assert signature(reference)[1] == FPS * (3 * CLIP_SECONDS - 1), "the edit lasts 5 s"
        made[name] = Edit(inputs, options, reference)
    return made


@pytest.fixture(scope="module")
def edit(edits):
    return edits["mixed"]


def write_plan(directory, edit, segue_cli):
    """Plans the edit into directory/plan.json; returns its path, its job count (checked against
    the job numbers the command prints) and what the command printed."""
    plan = directory / "plan.json"
    result = checked([segue_cli, "concat", *edit.inputs, "-o", directory / "film.mp4", *edit.options,
                      "--plan", plan])
    jobs = json.loads(plan.read_text())["jobs"]
    assert result.stdout.split() == [str(n) for n in range(len(jobs))]
    kinds = [job["kind"] for job in jobs]
    assert kinds[:1] == ["sound"] and jobs[0]["seconds"] == 3 * CLIP_SECONDS - 1, jobs
    pictures = jobs[1:]
    if "--smart" in edit.options:
        assert {"copy", "render"} <= set(kinds[1:]) <= {"copy", "render"}, jobs
    else:
        assert set(kinds[1:]) == {"segment"} and len(pictures) >= 5, jobs
        assert all(job["seconds"] <= 1 + 1e-9 for job in pictures), jobs
    assert abs(sum(job["seconds"] for job in pictures) - (3 * CLIP_SECONDS - 1)) < 1e-9, jobs
    return plan, len(jobs), result.stdout


@pytest.mark.parametrize("name", ["mixed", "smart"])
def test_gnu_parallel_runs_the_jobs_two_at_a_time_and_the_join_equals_one_process(edits, name, segue_cli,
                                                                                  tmp_path):
    edit = edits[name]
    plan, count, numbers = write_plan(tmp_path, edit, segue_cli)
    (tmp_path / "jobs.txt").write_text(numbers)
    checked([tool("parallel"), "--will-cite", "--halt", "now,fail=1", "-j", "2",
             segue_cli, "concat", "--job", plan, "{}", "::::", tmp_path / "jobs.txt"])
    joined = tmp_path / "film.mp4"
    checked([segue_cli, "concat", "--join", plan, "-o", joined])
    assert_same_render(joined, edit.reference)


# The cluster's `segue`: it records each job's attempts in the plan's directory, fails the first
# attempt of the job named in fail-first there, kills its worker (and the job) half a second into
# the first attempt of the job named in kill-first, and makes every attempt of the job named in
# fail-always run the real segue on a plan that does not exist (so the message is Segue's own).
WRAPPER = """#!/bin/sh
if [ "$1" = concat ] && [ "$2" = --job ]; then
  dir=$(dirname "$3")
  echo "$4" >> "$dir/attempts"
  if [ -f "$dir/kill-first" ] && [ "$(cat "$dir/kill-first")" = "$4" ] && [ ! -e "$dir/killed-once" ]; then
    : > "$dir/killed-once"
    "%(real)s" "$@" &
    sleep 0.5
    kill -9 $! $PPID
    exit 1
  fi
  if [ -f "$dir/fail-always" ] && [ "$(cat "$dir/fail-always")" = "$4" ]; then
    exec "%(real)s" concat --job "$dir/no-such-plan.json" "$4"
  fi
  if [ -f "$dir/fail-first" ] && [ "$(cat "$dir/fail-first")" = "$4" ] && [ ! -e "$dir/failed-once" ]; then
    : > "$dir/failed-once"
    echo "error: the first attempt of job $4 fails (test)" >&2
    exit 1
  fi
fi
exec "%(real)s" "$@"
"""


def dask_command():
    """The `dask` command of this interpreter's environment."""
    beside = pathlib.Path(sys.executable).parent / "dask"
    if beside.exists():
        return str(beside)
    path = shutil.which("dask")
    if path is None:
        pytest.fail("dask is not installed (python/run-tests.sh installs dask and distributed)")
    return path


def stop(process):
    """Stops a process this test started, with everything it started (its own session, whose
    id is the process's: until `process` is reaped here, no other process can have it)."""
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    process.wait(timeout=10)


def wait_for(condition, processes, logs, what, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        for process, log in zip(processes, logs):
            if process.poll() is not None:
                pytest.fail("%s exited with %d while waiting for %s:\n%s"
                            % (process.args[:2], process.returncode, what, log.read_text()[-3000:]))
        time.sleep(0.2)
    pytest.fail("timed out waiting for %s" % what)


Cluster = collections.namedtuple("Cluster", "address workers")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, segue_cli):
    """A Dask scheduler on 127.0.0.1 (a free port the OS picks) and two one-thread workers whose
    PATH starts with the wrapper; yields the scheduler's address and the workers' processes. Stopped, with the workers'
    `segue` children, when the module's tests are done or fail."""
    root = tmp_path_factory.mktemp("dask")
    bin_dir = root / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "segue"
    wrapper.write_text(WRAPPER % {"real": segue_cli})
    wrapper.chmod(0o755)
    worker_env = dict(os.environ, PATH="%s%s%s" % (bin_dir, os.pathsep, os.environ.get("PATH", "")))
    dask = dask_command()
    processes, logs = [], []

    def start(name, command):
        log = root / ("%s.log" % name)
        with open(log, "wb") as f:
            processes.append(subprocess.Popen(command, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                              env=worker_env, cwd=root, start_new_session=True))
        logs.append(log)

    try:
        scheduler_file = root / "scheduler.json"
        start("scheduler", [dask, "scheduler", "--host", "127.0.0.1", "--port", "0",
                            "--dashboard-address", "127.0.0.1:0", "--scheduler-file", str(scheduler_file),
                            "--idle-timeout", "900"])
        wait_for(scheduler_file.exists, processes, logs, "the scheduler")
        address = None
        deadline = time.monotonic() + 30
        while address is None and time.monotonic() < deadline:
            try:
                address = json.loads(scheduler_file.read_text())["address"]
            except (ValueError, KeyError):
                time.sleep(0.1)
        assert address and re.fullmatch(r"tcp://127\.0\.0\.1:\d+", address), address
        for n in (1, 2):
            start("worker%d" % n, [dask, "worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                                   "--no-nanny", "--no-dashboard", "--name", "worker%d" % n,
                                   "--death-timeout", "60", "--local-directory", str(root / ("worker%d" % n))])
        wait_for(lambda: all("Registered to" in log.read_text() for log in logs[1:]), processes, logs,
                 "two workers to register")
        yield Cluster(address, processes[1:])
    finally:
        for process in reversed(processes):
            stop(process)


def run_distributed(address, plan, output, *more):
    return run([sys.executable, "-m", "segue.distributed", "--scheduler", address, plan, "-o", output, *more],
               timeout=600)


def test_dask_runs_the_jobs_retries_a_failed_one_and_the_join_equals_one_process(
        edit, cluster, segue_cli, tmp_path):
    plan, count, _ = write_plan(tmp_path, edit, segue_cli)
    flaky = count // 2
    (tmp_path / "fail-first").write_text("%d\n" % flaky)
    pieces = tmp_path / "pieces"
    pieces.mkdir()
    output = tmp_path / "film.mp4"

    result = run_distributed(cluster.address, plan, output, "--work-dir", pieces)

    assert result.returncode == 0, result.stderr
    assert (tmp_path / "failed-once").exists(), "the wrapper never failed job %d" % flaky
    attempts = collections.Counter(int(line) for line in (tmp_path / "attempts").read_text().split())
    assert attempts == {n: 2 if n == flaky else 1 for n in range(count)}
    done = re.findall(r"^job (\d+) done: (\d+) of (\d+) \(", result.stderr, re.M)
    assert sorted(int(job) for job, _, _ in done) == list(range(count)), result.stderr
    assert [int(d) for _, d, _ in done] == list(range(1, count + 1))
    assert {int(total) for _, _, total in done} == {count}
    assert any(pieces.iterdir()), "--work-dir reached the jobs"
    assert_same_render(output, edit.reference)


def test_dask_joins_on_a_worker(edit, cluster, segue_cli, tmp_path):
    plan, count, _ = write_plan(tmp_path, edit, segue_cli)
    output = tmp_path / "film.mp4"

    result = run_distributed(cluster.address, plan, output, "--join-on-worker", "--retries", "0")

    assert result.returncode == 0, result.stderr
    assert len(re.findall(r"^job \d+ done: ", result.stderr, re.M)) == count
    assert_same_render(output, edit.reference)


def test_dask_reports_a_job_that_fails_every_attempt_and_writes_nothing(edit, cluster, segue_cli, tmp_path):
    plan, count, _ = write_plan(tmp_path, edit, segue_cli)
    broken = count - 1
    (tmp_path / "fail-always").write_text("%d\n" % broken)
    expected = run([segue_cli, "concat", "--job", tmp_path / "no-such-plan.json", str(broken)])
    assert expected.returncode == 1 and expected.stderr.startswith("error: "), expected.stderr
    message = expected.stderr.strip().splitlines()[-1][len("error: "):]
    output = tmp_path / "film.mp4"

    result = run_distributed(cluster.address, plan, output)

    assert result.returncode == 1, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "error: job %d failed after 3 attempts: %s" % (broken, message)
    attempts = collections.Counter(int(line) for line in (tmp_path / "attempts").read_text().split())
    assert attempts[broken] == 3, attempts
    assert not output.exists()


# A `segue` that exits 0 and writes only what files in the plan's directory ask for: "pieces" and
# "records" (each job's, in the work directory as `segue concat --job` chooses it: --work-dir,
# else the plan's workDirectory, else the plan's own directory), "film" (the join's output, with
# something in it) or "empty-film".
FAKE_SEGUE = """#!/bin/sh
dir=$(dirname "$3")
if [ "$1 $2" = "concat --job" ]; then
  into=$(sed -n 's/.*"workDirectory": *"\\([^"]*\\)".*/\\1/p' "$3")
  [ -n "$into" ] || into=$dir
  [ "$5" = --work-dir ] && into=$6
  n=$(printf %04d "$4")
  [ -e "$dir/pieces" ] && echo piece > "$into/p.job-$n.mp4"
  [ -e "$dir/records" ] && echo record > "$into/p.job-$n.json"
fi
if [ "$1 $2" = "concat --join" ]; then
  [ -e "$dir/film" ] && echo film > "$5"
  [ -e "$dir/empty-film" ] && : > "$5"
fi
exit 0
"""


def fake_plan(directory, *writes, jobs=3, work_directory=None):
    """directory/plan.json: `jobs` jobs with pieces p.job-NNNN.mp4 and records p.job-NNNN.json
    (in `work_directory` when given), and the fake `segue` beside it, told to write `writes`;
    returns the plan's path and the fake's."""
    plan = {"version": 1, "segue": "0.1.0",
            "jobs": [{"kind": "segment", "frames": [n * 30, n * 30 + 30], "seconds": 1,
                      "piece": "p.job-%04d.mp4" % n, "record": "p.job-%04d.json" % n} for n in range(jobs)]}
    if work_directory is not None:
        plan["workDirectory"] = str(work_directory)
    path = directory / "plan.json"
    path.write_text(json.dumps(plan))         # one line: the fake reads workDirectory with sed
    fake = directory / "fake-segue"
    fake.write_text(FAKE_SEGUE)
    fake.chmod(0o755)
    for name in writes:
        (directory / name).write_text("")
    return path, fake


@pytest.mark.parametrize("writes, missing", [((), "piece"), (("pieces",), "record")])
def test_dask_refuses_jobs_that_exit_0_without_their_piece_or_record(cluster, tmp_path, writes, missing):
    plan, fake = fake_plan(tmp_path, *writes, "film")
    output = tmp_path / "film.mp4"

    result = run_distributed(cluster.address, plan, output, "--segue", fake, "--retries", "0")

    assert result.returncode == 1, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    match = re.fullmatch(r"error: job (\d) exited 0 but its %s (\S+) is missing "
                         r"\(is the work directory shared with the workers\?\)" % missing, last)
    assert match, result.stderr
    suffix = ".mp4" if missing == "piece" else ".json"
    assert match.group(2) == str(tmp_path / ("p.job-%04d%s" % (int(match.group(1)), suffix)))
    assert not re.search(r"^wrote ", result.stderr, re.M), result.stderr
    assert not output.exists()


@pytest.mark.parametrize("join, writes, expected", [
    ("local", (), "the join exited 0 but wrote no %s"),
    ("worker", (), "the join exited 0 but wrote no %s"),
    ("local", ("empty-film",), "the join exited 0 but %s is empty"),
    ("worker", ("empty-film",), "the join exited 0 but %s is empty"),
])
def test_dask_refuses_a_join_that_exits_0_without_the_film(cluster, tmp_path, join, writes, expected):
    plan, fake = fake_plan(tmp_path, "pieces", "records", *writes)
    output = tmp_path / "film.mp4"
    more = ["--join-on-worker"] if join == "worker" else []

    result = run_distributed(cluster.address, plan, output, "--segue", fake, *more)

    assert result.returncode == 1, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "error: " + expected % output
    assert len(re.findall(r"^job \d done: ", result.stderr, re.M)) == 3, result.stderr
    assert not re.search(r"^wrote ", result.stderr, re.M), result.stderr


def test_dask_finds_the_pieces_where_segue_concat_job_writes_them(cluster, tmp_path):
    # The plan's own directory, the plan's workDirectory, and --work-dir over the plan's.
    planned, given = tmp_path / "planned", tmp_path / "given"
    for where, work_directory, more in (("own", None, []), ("planned", planned, []),
                                        ("given", planned, ["--work-dir", given])):
        directory = tmp_path / where
        directory.mkdir(exist_ok=True)
        for d in (planned, given):
            d.mkdir(exist_ok=True)
            for piece in d.iterdir():
                piece.unlink()
        plan, fake = fake_plan(directory, "pieces", "records", "film", work_directory=work_directory)
        output = directory / "film.mp4"

        result = run_distributed(cluster.address, plan, output, "--segue", fake, *more)

        assert result.returncode == 0, "%s: %s" % (where, result.stderr)
        assert result.stderr.strip().splitlines()[-1] == "wrote %s" % output
        pieces = {"own": directory, "planned": planned, "given": given}[where]
        assert sorted(p.name for p in pieces.glob("p.job-*")) == \
            sorted("p.job-%04d.%s" % (n, ext) for n in range(3) for ext in ("mp4", "json")), where


def test_dask_runs_a_job_again_when_its_worker_is_killed_in_the_middle(edit, cluster, segue_cli, tmp_path):
    # Last of the cluster's tests: it leaves one worker.
    plan, count, _ = write_plan(tmp_path, edit, segue_cli)
    victim = 1
    (tmp_path / "kill-first").write_text("%d\n" % victim)
    output = tmp_path / "film.mp4"

    result = run_distributed(cluster.address, plan, output)

    assert result.returncode == 0, result.stderr
    assert (tmp_path / "killed-once").exists(), "the wrapper never killed a worker"
    assert sorted(worker.poll() for worker in cluster.workers if worker.poll() is not None) == [-signal.SIGKILL]
    attempts = collections.Counter(int(line) for line in (tmp_path / "attempts").read_text().split())
    assert attempts[victim] == 2, attempts
    assert_same_render(output, edit.reference)


def test_importing_segue_does_not_need_dask(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text('{"version": 1, "jobs": [{"kind": "audio", "seconds": 1}]}')
    script = ("import sys; sys.modules['distributed'] = None\n"
              "import segue, segue.distributed\n"
              "try:\n"
              "    segue.distributed.run(sys.argv[1], sys.argv[2], scheduler='tcp://127.0.0.1:1')\n"
              "except segue.SegueError as e:\n"
              "    print(e)\n")
    result = checked([sys.executable, "-c", script, plan, tmp_path / "out.mp4"])
    assert result.stdout.strip() == \
        "segue.distributed needs Dask's distributed package: pip install './python[distributed]'"


def test_distributed_refuses_a_file_that_is_not_a_plan(tmp_path):
    (tmp_path / "edit.json").write_text('{"clips": []}')
    (tmp_path / "broken.json").write_text('{"jobs": [')
    for name, expected in (("edit.json", "%s is not a plan (no \"jobs\" array); write one with segue concat --plan"),
                           ("missing.json", "cannot read the plan %s: No such file or directory")):
        path = tmp_path / name
        result = run([sys.executable, "-m", "segue.distributed", "--scheduler", "tcp://127.0.0.1:1", path,
                      "-o", tmp_path / "out.mp4"])
        assert result.returncode == 1
        assert result.stderr == "error: %s\n" % (expected % path)
    result = run([sys.executable, "-m", "segue.distributed", "--scheduler", "tcp://127.0.0.1:1",
                  tmp_path / "broken.json", "-o", tmp_path / "out.mp4"])
    assert result.returncode == 1 and result.stderr.startswith("error: %s is not a plan (not JSON: "
                                                               % (tmp_path / "broken.json"))
    assert not (tmp_path / "out.mp4").exists()


def test_distributed_refuses_a_bad_scheduler_address_and_one_that_does_not_answer(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text('{"version": 1, "jobs": [{"kind": "sound", "seconds": 1}]}')
    result = run([sys.executable, "-m", "segue.distributed", "--scheduler", "tcp://127.0.0.1", plan,
                  "-o", tmp_path / "out.mp4"])
    assert result.returncode == 1
    assert result.stderr.startswith("error: tcp://127.0.0.1 is not a scheduler address like tcp://HOST:PORT ("), \
        result.stderr
    with socket.socket() as s:        # a port nothing listens on: bound here, never listening
        s.bind(("127.0.0.1", 0))
        address = "tcp://127.0.0.1:%d" % s.getsockname()[1]
        started = time.monotonic()
        result = run([sys.executable, "-m", "segue.distributed", "--scheduler", address, "--connect-timeout", "2",
                      plan, "-o", tmp_path / "out.mp4"])
    assert result.returncode == 1
    assert result.stderr.startswith("error: cannot reach the Dask scheduler at %s: " % address), result.stderr
    assert time.monotonic() - started < 60
    assert not (tmp_path / "out.mp4").exists()


def test_progress_is_one_live_line_on_a_terminal_and_a_line_per_job_otherwise():
    import io
    from segue.distributed import _Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal, log = Terminal(), io.StringIO()
    for stream in (terminal, log):
        progress = _Progress(stream)
        for done, job in enumerate((2, 0, 1), start=1):
            progress(done, 3, job)
    assert re.fullmatch(r"\rjobs: 1 of 3 done \(\d+\.\d s\)\rjobs: 2 of 3 done \(\d+\.\d s\)"
                        r"\rjobs: 3 of 3 done \(\d+\.\d s\)\n", terminal.getvalue()), repr(terminal.getvalue())
    assert re.fullmatch(r"job 2 done: 1 of 3 \(\d+\.\d s\)\njob 0 done: 2 of 3 \(\d+\.\d s\)\n"
                        r"job 1 done: 3 of 3 \(\d+\.\d s\)\n", log.getvalue()), repr(log.getvalue())


def test_distributed_refuses_a_plan_nested_too_deeply_to_read(tmp_path):
    # json.load raised RecursionError, which is no SegueError (the command line printed a traceback).
    import segue
    import segue.distributed as distributed
    plan = tmp_path / "deep.json"
    plan.write_text('{"jobs": ' + "[" * 100000 + "]" * 100000 + "}")
    with pytest.raises(segue.SegueError, match="is not a plan \\(its JSON nests arrays or objects too deeply"):
        distributed.job_count(plan)
    result = run([sys.executable, "-m", "segue.distributed", "--scheduler", "tcp://127.0.0.1:1", plan,
                  "-o", tmp_path / "out.mp4"])
    assert result.returncode == 1
    assert result.stderr == "error: %s is not a plan (its JSON nests arrays or objects too deeply to read)\n" % plan


@pytest.mark.parametrize("field, name", [("piece", "/etc/passwd"), ("record", "/etc/hostname"),
                                         ("piece", "../elsewhere/p.job-0000.mp4"), ("record", "sub/p.json"),
                                         ("piece", ".."), ("record", ".hidden.json"), ("piece", "p\0.mp4")])
def test_a_jobs_files_must_be_file_names_in_the_work_directory(tmp_path, field, name):
    # A piece or record named by a path passed for done when a file was there, wherever it was.
    import segue
    import segue.distributed as distributed
    work = tmp_path / "work"
    work.mkdir()
    job = {"kind": "sound", "seconds": 1, "piece": "p.job-0000.mp4", "record": "p.job-0000.json"}
    for own in job["piece"], job["record"]:
        (work / own).write_text("x")
    distributed._check_job_files({"jobs": [dict(job)]}, 0, str(work))     # the plan as segue writes it
    job[field] = name
    with pytest.raises(segue.SegueError, match="job 0 of the plan: its %s %s is not a file name in the work directory"
                                               % (field, re.escape(repr(name)))):
        distributed._check_job_files({"jobs": [job]}, 0, str(work))


def test_job_command_takes_a_whole_number_index_only():
    import numpy as np
    import segue
    import segue.distributed as distributed
    for index in (True, False, 1.0, "0", "0; rm -rf /", None, np.bool_(True)):
        with pytest.raises(segue.InvalidArgumentTypeError, match="the job index must be a whole number ≥ 0"):
            distributed.job_command("/tmp/p.json", index)
    for index in (-1, np.int64(-3)):
        with pytest.raises(segue.InvalidArgumentError, match="the job index must be a whole number ≥ 0, not -"):
            distributed.job_command("/tmp/p.json", index)
    assert distributed.job_command("/tmp/p.json", np.int64(3)) == ["segue", "concat", "--job", "/tmp/p.json", "3"]
    assert distributed.job_command("/tmp/p.json", 0)[-1] == "0"
