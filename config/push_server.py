"""How the push process (uvicorn serving ``config.asgi``) must be started, in one place: the
deploy files (``deploy/domino-push.service``, ``deploy/Procfile``), ``make run``, the push
tests' server and the benches all pass these arguments (``config/tests/test_deploy.py`` checks
the deploy files do).

    WS_MAX_SIZE            the largest WebSocket message uvicorn reads, in bytes
    uvicorn_arguments()    ["config.asgi:application", "--ws-max-size", ...]

Why a limit: the pages send nothing on their sockets (``tournaments.live.consumers`` closes
one that does), yet uvicorn reads a message whole before the application sees it, 16 MiB by
default: 20 such frames from anonymous sockets grew the push workers by hundreds of MB. Beyond
this size uvicorn closes the socket (1009) without reading the rest.
"""

WS_MAX_SIZE = 4096


def uvicorn_arguments() -> list[str]:
    return ["config.asgi:application", "--ws-max-size", str(WS_MAX_SIZE)]
