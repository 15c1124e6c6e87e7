"""Running a `segue concat --plan` plan on a Dask cluster: one task per job, then the join.

    segue concat a.mp4 b.mov c.mp4 -o film.mp4 --plan /shared/film/plan.json
    python -m segue.distributed --scheduler tcp://scheduler:8786 /shared/film/plan.json -o film.mp4

Each job is a task that runs ``segue concat --job PLAN N`` as a subprocess on a worker, so the
workers need the ``segue`` CLI on their PATH (or at the path ``segue=`` names) and the plan's
directory on a shared filesystem at the same path as the client sees it: the pieces are written
there and never travel through Dask. Tasks call only the standard library (``subprocess.run``),
so the workers need Dask's ``distributed`` but not this package. A job that fails is retried
(``retries``, default 2: three attempts in all); a worker that dies is replaced by Dask itself.
A job is done when it exits 0 and its piece and record are in the work directory (a job that
exits 0 without them is an error: a ``segue`` that is not Segue's CLI, or a work directory the
workers do not share with this process). When every job is done, the join (``segue concat --join
PLAN -o OUT``) runs here, or with ``join="worker"`` as one more task (then OUT is a path as the
workers see it); it succeeds when OUT is then there and not empty.

Needs ``pip install './python[distributed]'``; importing `segue` does not.
"""
from __future__ import annotations

import argparse
import json
import numbers
import os
import subprocess
import sys
import time
import uuid
from typing import Any, Callable, Dict, List, Optional, Sequence, TextIO, Union

from ._library import InvalidArgumentError, InvalidArgumentTypeError, SegueError, name_text, path_text

#: A path as these functions take it.
PathText = Union[str, os.PathLike[str]]

__all__ = ["run", "job_count", "job_command", "join_command", "main"]

MISSING = "segue.distributed needs Dask's distributed package: pip install './python[distributed]'"


def _read_plan(plan: PathText) -> Dict[str, Any]:
    """The plan file `plan` as JSON, checked to have a top-level ``jobs`` array; raises SegueError
    when the file cannot be read or is not a plan."""
    plan = path_text(plan, "the plan")
    try:
        with open(plan, "rb") as f:
            document = json.load(f)
    except OSError as e:
        raise SegueError("cannot read the plan %s: %s" % (plan, e.strerror or e)) from None
    except ValueError as e:
        raise SegueError("%s is not a plan (not JSON: %s)" % (plan, e)) from None
    except RecursionError:
        raise SegueError("%s is not a plan (its JSON nests arrays or objects too deeply to read)" % plan) from None
    jobs = document.get("jobs") if isinstance(document, dict) else None
    if not isinstance(jobs, list):
        raise SegueError("%s is not a plan (no \"jobs\" array); write one with segue concat --plan" % plan)
    plan_document: Dict[str, Any] = document
    return plan_document


def job_count(plan: PathText) -> int:
    """The number of jobs in the plan file `plan` (its top-level ``jobs`` array); raises
    SegueError when the file cannot be read or is not a plan."""
    return len(_read_plan(plan)["jobs"])


def _work_directory(plan: PathText, document: Dict[str, Any], work_dir: Optional[PathText] = None) -> str:
    """Where the jobs of the plan file `plan` (read as `document`) write their pieces, as
    ``segue concat --job`` decides: `work_dir`, else the plan's ``workDirectory``, else the plan's
    own directory; absolute."""
    if work_dir is not None:
        return os.path.abspath(path_text(work_dir, "the work directory"))
    planned = document.get("workDirectory")
    if isinstance(planned, str) and planned:
        return os.path.abspath(planned)
    return os.path.dirname(os.path.abspath(path_text(plan, "the plan")))


def job_command(plan: PathText, index: int, work_dir: Optional[PathText] = None,
                segue: PathText = "segue") -> List[str]:
    """The command line of job `index`: ``segue concat --job PLAN N [--work-dir DIR]``.

    Raises InvalidArgumentTypeError (a TypeError and a SegueError) for an index that is not an
    int (a bool, a float, text) and InvalidArgumentError (a ValueError and a SegueError) for a
    negative one."""
    if not isinstance(index, numbers.Integral) or isinstance(index, bool):
        raise InvalidArgumentTypeError("the job index must be a whole number ≥ 0, not %s %r"
                                       % (type(index).__name__, index))
    if index < 0:
        raise InvalidArgumentError("the job index must be a whole number ≥ 0, not %d" % index)
    command = [path_text(segue, "the segue command"), "concat", "--job", path_text(plan, "the plan"),
               str(int(index))]
    if work_dir is not None:
        command += ["--work-dir", path_text(work_dir, "the work directory")]
    return command


def join_command(plan: PathText, output: PathText, work_dir: Optional[PathText] = None,
                 segue: PathText = "segue") -> List[str]:
    """The command line of the join: ``segue concat --join PLAN -o OUT [--work-dir DIR]``."""
    command = [path_text(segue, "the segue command"), "concat", "--join", path_text(plan, "the plan"),
               "-o", path_text(output, "the output")]
    if work_dir is not None:
        command += ["--work-dir", path_text(work_dir, "the work directory")]
    return command


def _check_job_files(document: Dict[str, Any], index: int, directory: str) -> None:
    """Raises SegueError unless job `index` left its piece and its record in `directory`: a job
    that exits 0 without them (a `segue` that is not Segue's CLI, a work directory the workers do
    not share) would otherwise pass for done, and the film would never be made."""
    job = document["jobs"][index]
    for field in ("piece", "record"):
        name = job.get(field) if isinstance(job, dict) else None
        if not isinstance(name, str) or not name:
            raise SegueError("job %d of the plan names no %s file; write the plan with segue concat --plan"
                             % (index, field))
        # A file name of its own in the work directory, as segue concat --plan writes and checks
        # it: a path (absolute, or through "..") would make a file elsewhere pass for the job's.
        if "/" in name or name.startswith(".") or "\0" in name:
            raise SegueError("job %d of the plan: its %s %r is not a file name in the work directory; write the "
                             "plan with segue concat --plan" % (index, field, name))
        path = os.path.join(directory, name)
        if not os.path.exists(path):
            raise SegueError("job %d exited 0 but its %s %s is missing (is the work directory shared "
                             "with the workers?)" % (index, field, path))


def failure_message(stderr: Optional[str], returncode: Optional[int]) -> str:
    """What a failed `segue` run said: its ``error: …`` lines without the prefix, else its last
    line of stderr, else its exit status."""
    lines = [line.strip() for line in (stderr or "").splitlines() if line.strip()]
    errors = [line[len("error:"):].strip() for line in lines if line.startswith("error:")]
    if errors:
        return "; ".join(errors)
    if lines:
        return lines[-1]
    if returncode is not None and returncode < 0:
        return "killed by signal %d" % -returncode
    return "exit status %s" % returncode


def _explain(exception: BaseException, where: str = "on the worker") -> str:
    """A task's exception as one line: Segue's message for a failed subprocess."""
    if isinstance(exception, subprocess.CalledProcessError):
        return failure_message(exception.stderr, exception.returncode)
    if isinstance(exception, FileNotFoundError):
        return "%s not found %s (put segue on the PATH or name it with --segue)" % (
            exception.filename or "segue", where)
    text = str(exception)
    return "%s: %s" % (type(exception).__name__, text) if text else type(exception).__name__


def _submit(client: Any, command: List[str], key: str, retries: int) -> Any:
    """One task that runs `command` on a worker; it raises CalledProcessError (with stderr) on a
    non-zero exit, so Dask retries it."""
    return client.submit(subprocess.run, command, capture_output=True, text=True, check=True,
                         stdin=subprocess.DEVNULL, key=key, retries=retries, pure=False)


def run(plan: PathText, output: PathText, client: Any = None, scheduler: Optional[str] = None,
        work_dir: Optional[PathText] = None, retries: int = 2, segue: PathText = "segue", join: str = "local",
        progress: Optional[Callable[[int, int, int], object]] = None, timeout: float = 30) -> str:
    """Runs every job of the plan file `plan` on a Dask cluster, then joins the pieces into
    `output`; returns `output`.

    `client` is a ``distributed.Client`` (left open), else one is connected to `scheduler`
    (``tcp://HOST:PORT``) and closed at the end. `work_dir` is passed to every job and the join
    as ``--work-dir``; `segue` is the CLI the workers (and a local join) run; `retries` is how
    many times a failed job is tried again. `join` is ``"local"`` (this process runs the join)
    or ``"worker"`` (a task does). `progress(done, total, job)` is called after each job;
    `timeout` is how many seconds to wait for the scheduler.

    Raises SegueError, naming the job and giving Segue's message, when a job still fails after
    its retries (the remaining jobs are cancelled and no output is written), when a job exits 0
    without leaving its piece and record in the work directory, or when the join fails or leaves
    no `output` (or an empty one). Raises TypeError for a path that is not a str or an
    os.PathLike, ValueError for one holding a NUL character, InvalidArgumentError (a ValueError
    and a SegueError) for a `join` other than those two or a negative `retries`,
    InvalidArgumentTypeError (a TypeError and a SegueError) for `retries` that is not an int.
    """
    if join not in ("local", "worker"):
        raise InvalidArgumentError("join must be \"local\" or \"worker\", not %r" % (join,))
    if not isinstance(retries, int) or isinstance(retries, bool):
        raise InvalidArgumentTypeError("retries must be a whole number ≥ 0, not %r" % (retries,))
    if retries < 0:
        raise InvalidArgumentError("retries must be a whole number ≥ 0, not %r" % (retries,))
    plan = os.path.abspath(path_text(plan, "the plan"))
    output = os.path.abspath(path_text(output, "the output"))
    if work_dir is not None:
        work_dir = os.path.abspath(path_text(work_dir, "the work directory"))
    segue = path_text(segue, "the segue command")
    if scheduler is not None:
        name_text(scheduler, "the scheduler address")
    document = _read_plan(plan)
    pieces = _work_directory(plan, document, work_dir)
    try:
        import distributed as imported
    except ImportError:
        raise SegueError(MISSING) from None
    distributed: Any = imported   # Dask's own hints are partial
    owned = client is None
    if owned:
        if not scheduler:
            raise SegueError("give a client or a scheduler address (tcp://HOST:PORT)")
        try:
            distributed.comm.get_address_host_port(scheduler)
        except ValueError as e:
            raise SegueError("%s is not a scheduler address like tcp://HOST:PORT (%s)" % (scheduler, e)) from None
        try:
            client = distributed.Client(scheduler, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise SegueError("cannot reach the Dask scheduler at %s: %s" % (scheduler, e)) from None
    try:
        _run_jobs(distributed, client, plan, document, pieces, work_dir, retries, segue, progress)
        command = join_command(plan, output, work_dir, segue)
        if join == "worker":
            future = _submit(client, command, "segue-join-" + uuid.uuid4().hex[:8], 0)
            try:
                future.result()
            except Exception as e:
                raise SegueError("the join failed: %s" % _explain(e)) from None
            size = _size_on_worker(client, future, output)
        else:
            try:
                subprocess.run(command, capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL)
            except (subprocess.CalledProcessError, FileNotFoundError) as e:
                raise SegueError("the join failed: %s" % _explain(e, "here")) from None
            try:
                size = os.path.getsize(output)
            except OSError:
                size = None
        # A join that exits 0 is not yet a film: a `segue` that is not Segue's CLI writes nothing.
        if size is None:
            raise SegueError("the join exited 0 but wrote no %s" % output)
        if size == 0:
            raise SegueError("the join exited 0 but %s is empty" % output)
        return output
    finally:
        if owned:
            client.close()


def _size_on_worker(client: Any, join: Any, output: str) -> Optional[int]:
    """The size of `output` as the workers see it (None when it is missing), asked of the worker
    that ran the `join` task where it still can be (OUT may be on its own disk)."""
    holders = list(client.who_has([join]).get(join.key) or ())
    check = client.submit(os.stat, output, key="segue-join-check-" + uuid.uuid4().hex[:8], pure=False,
                          workers=holders or None, allow_other_workers=True)
    try:
        size: int = check.result().st_size
        return size
    except OSError:
        return None


def _run_jobs(distributed: Any, client: Any, plan: str, document: Dict[str, Any], pieces: str,
              work_dir: Optional[str], retries: int, segue: str,
              progress: Optional[Callable[[int, int, int], object]]) -> None:
    """Submits every job, waits for them in the order they finish and reports each, once its piece
    and record are in `pieces`; on the first job that fails for good, cancels the rest and
    raises."""
    total = len(document["jobs"])
    run_id = uuid.uuid4().hex[:8]
    futures: Dict[str, Any] = {}
    for index in range(total):
        future = _submit(client, job_command(plan, index, work_dir, segue),
                         "segue-job-%d-%s" % (index, run_id), retries)
        futures[future.key] = (index, future)
    done = 0
    try:
        for future in distributed.as_completed([f for _, f in futures.values()], loop=client.loop):
            index = futures[future.key][0]
            if future.status != "finished":
                try:
                    future.result()
                    reason = future.status
                except Exception as e:   # the task's own exception, re-raised here
                    reason = _explain(e)
                attempts = retries + 1
                raise SegueError("job %d failed after %d attempt%s: %s"
                                 % (index, attempts, "" if attempts == 1 else "s", reason))
            _check_job_files(document, index, pieces)
            done += 1
            if progress is not None:
                progress(done, total, index)
    except BaseException:
        try:
            client.cancel([f for _, f in futures.values()])
        except Exception:   # a lost connection: the scheduler drops the tasks with the client
            pass
        raise


class _Progress:
    """Progress on a stream: a line per finished job, or one live line on a terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.start = time.monotonic()

    def __call__(self, done: int, total: int, job: int) -> None:
        elapsed = time.monotonic() - self.start
        if self.live:
            self.stream.write("\rjobs: %d of %d done (%.1f s)" % (done, total, elapsed))
            if done == total:
                self.stream.write("\n")
        else:
            self.stream.write("job %d done: %d of %d (%.1f s)\n" % (job, done, total, elapsed))
        self.stream.flush()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m segue.distributed",
        description="Runs the jobs of a `segue concat --plan` plan on a Dask cluster, then joins the pieces. "
                    "Workers need segue on their PATH and the plan's directory on a shared filesystem "
                    "(at the same path as here).")
    parser.add_argument("plan", help="the plan file (segue concat ... --plan PLAN.json)")
    parser.add_argument("-o", "--output", required=True, help="the joined movie")
    parser.add_argument("--scheduler", required=True, metavar="tcp://HOST:PORT", help="the Dask scheduler")
    parser.add_argument("--work-dir", metavar="DIR", help="where the pieces are (default: the plan's directory)")
    parser.add_argument("--retries", type=int, default=2, metavar="N",
                        help="times a failed job is tried again (default 2)")
    parser.add_argument("--segue", default="segue", metavar="PATH",
                        help="the segue CLI on the workers (default: segue on their PATH)")
    parser.add_argument("--connect-timeout", type=float, default=30, metavar="SECONDS",
                        help="how long to wait for the scheduler (default 30)")
    parser.add_argument("--join-on-worker", action="store_true",
                        help="run the join as a task on a worker (OUT is then a path as the workers see it)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: returns the exit status (0, or 1 after printing `error: …`)."""
    args = _parser().parse_args(argv)
    if args.retries < 0:
        print("error: --retries must be 0 or more, not %d" % args.retries, file=sys.stderr)
        return 1
    if not args.connect_timeout > 0:
        print("error: --connect-timeout must be more than 0 seconds", file=sys.stderr)
        return 1
    try:
        run(args.plan, args.output, scheduler=args.scheduler, work_dir=args.work_dir, retries=args.retries,
            segue=args.segue, join="worker" if args.join_on_worker else "local", progress=_Progress(sys.stderr),
            timeout=args.connect_timeout)
    except SegueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted; the jobs still running finish on their workers", file=sys.stderr)
        return 130
    print("wrote %s" % args.output, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
