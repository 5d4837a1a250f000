"""The one bounded pool of worker threads that does the bot's database work, urgent work first.

Discord wants every interaction acknowledged (answered or deferred) within 3 s of its creation. Work
that must finish before that first response (a check, resolving what a form refers to before its
modal opens, a lookup that may still answer at once) is *urgent*; work whose interaction is already
deferred has 15 minutes and waits behind it. ``Workers`` is the event loop's default executor, so
every ``asyncio.to_thread`` is urgent; ``cogs.common.respond`` puts a deferred reply's work in the
other lane with ``start``. Within a lane, jobs run in the order they came, and deferred work
never takes the last thread: however long the replies being prepared, urgent work finds one free.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import heapq
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

_P = ParamSpec("_P")
_T = TypeVar("_T")

WORKERS = 4  # threads: enough to overlap database waits; the GIL makes more of them no faster
URGENT, DEFERRED = 0, 1  # lanes, in the order they are served

_Job = tuple[int, int, Future[Any], Callable[[], Any]]  # lane, arrival number, its future, the call


class Workers(ThreadPoolExecutor):
    """A fixed set of threads taking jobs from two lanes, urgent first (``submit`` is urgent).

    A ``ThreadPoolExecutor`` by type only, as asyncio's default executor must be one: it keeps its own
    queue and threads, and overrides every method that would reach the base class's.
    """

    def __init__(self, threads: int = WORKERS, *, name: str = "parlbot-worker") -> None:
        super().__init__(max_workers=threads, thread_name_prefix=name)
        self._queue: list[_Job] = []
        self._arrivals = itertools.count()
        self._ready = threading.Condition()
        self._running = 0
        self._running_deferred = 0
        self._stopping = False
        self._size = threads
        self._name = name
        self._pool: list[threading.Thread] = []  # started with the first job

    @property
    def threads(self) -> int:
        return self._size

    def congested(self) -> bool:
        """Whether a new job would wait: every thread is busy or jobs are queued already."""
        with self._ready:
            return bool(self._queue) or self._running >= self._size

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        return self.submit_in(URGENT, functools.partial(fn, *args, **kwargs))

    def submit_in(self, lane: int, call: Callable[[], _T]) -> Future[_T]:
        future: Future[_T] = Future()
        with self._ready:
            if self._stopping:
                raise RuntimeError("the worker pool is shut down")
            heapq.heappush(self._queue, (lane, next(self._arrivals), future, call))
            if not self._pool:
                self._start()
            self._ready.notify()
        return future

    def _start(self) -> None:
        self._pool = [
            threading.Thread(target=self._work, name=f"{self._name}-{n}", daemon=True)
            for n in range(self._size)
        ]
        for thread in self._pool:
            thread.start()

    def start(self, call: Callable[[], _T], lane: int = URGENT) -> asyncio.Future[_T]:
        """Queue ``call`` in ``lane`` now, in the caller's context (its language), and return its
        future on the running loop. Queued at once, not when a task first runs: a burst's next
        interaction already sees it in ``congested``."""
        context = contextvars.copy_context()
        return asyncio.wrap_future(self.submit_in(lane, functools.partial(context.run, call)))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._ready:
            self._stopping = True
            if cancel_futures:
                for _, _, future, _ in self._queue:
                    future.cancel()
                self._queue.clear()
            self._ready.notify_all()
        if wait:
            for thread in self._pool:
                if thread is not threading.current_thread():
                    thread.join()

    def _may_take(self) -> bool:
        """Whether the next job may start now: urgent always, deferred while a thread stays free."""
        lane = self._queue[0][0]
        return lane == URGENT or self._running_deferred < max(1, self._size - 1)

    def _work(self) -> None:
        while True:
            with self._ready:
                while not (self._queue and self._may_take()) and not (self._stopping and not self._queue):
                    self._ready.wait()
                if not self._queue:
                    return  # stopping, and nothing left to do
                lane, _, future, call = heapq.heappop(self._queue)
                self._running += 1
                self._running_deferred += lane == DEFERRED
            try:
                if future.set_running_or_notify_cancel():
                    try:
                        result = call()
                    except BaseException as error:  # handed to whoever awaits the future
                        future.set_exception(error)
                    else:
                        future.set_result(result)
            finally:
                with self._ready:
                    self._running -= 1
                    self._running_deferred -= lane == DEFERRED
                    self._ready.notify_all()  # a deferred job may wait for this thread
