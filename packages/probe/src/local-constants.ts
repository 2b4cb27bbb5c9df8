// Pure module: the limits and the sandbox profile of a local server's check, one name each. Users read them
// grouped and frozen as LOCAL_RULES in `./rules`. A change here changes which local servers list their tools,
// so it comes with a probe rules version bump and a changelog line (docs/methodology/local.md).

/** The package registries a local server is installed from. OCI images are not run. */
export const LOCAL_REGISTRY_TYPES = Object.freeze(['npm', 'pypi'] as const);

/** Where packages are installed from by default; each is a setting, never a URL a registry entry chooses. */
export const LOCAL_DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org/';
export const LOCAL_DEFAULT_PYPI_INDEX = 'https://pypi.org/simple/';

/** Where the system's Python is looked for first, to make a package's virtual environment from. */
export const LOCAL_SYSTEM_PYTHONS = Object.freeze(['/usr/bin/python3', '/usr/local/bin/python3']);

/** One install (npm or pip, with its downloads) before it is stopped and counted as failed. */
export const LOCAL_INSTALL_TIMEOUT_MS = 300_000;

/** The installed folder of one package version, dependencies included; a larger one is removed and refused. */
export const LOCAL_INSTALL_CAP_BYTES = 512 * 1024 * 1024;

/**
 * The limits the server runs under inside the sandbox. CPU time, data size, processes (threads count too:
 * Node.js alone starts about a dozen), open files and file size are kernel limits set by prlimit; output and
 * wall time are counted by the checker, which ends the sandbox when either is passed.
 */
export const LOCAL_SANDBOX_LIMITS = Object.freeze({
  /** Seconds of CPU time: SIGXCPU at this many, SIGKILL one later. A real server starts in well under one. */
  cpuSeconds: 10,
  /** Bytes of data (heap and private memory) of each process; address space only reserved is not counted. */
  memoryBytes: 1024 * 1024 * 1024,
  /** Processes and threads of the sandbox's user. */
  processes: 64,
  /** Open files of each process. */
  openFiles: 256,
  /** Bytes of any one file it writes. */
  fileBytes: 16 * 1024 * 1024,
  /** Bytes of each of its tmpfs folders (home and /tmp). */
  tmpfsBytes: 64 * 1024 * 1024,
  /** Bytes of stdout and stderr together. */
  outputBytes: 16 * 1024 * 1024,
  /** Milliseconds from start to the end of tools/list; it is also the wait for each answer. */
  wallMs: 30_000,
});

/** The user a sandbox runs as when the checker itself runs as root: the kernel does not hold root to a process limit. */
export const LOCAL_SANDBOX_UID = 65534;

/** The sandbox's home folder, a tmpfs, also its working folder. */
export const LOCAL_SANDBOX_HOME = '/home/sandbox';

/**
 * Host folders bound read-only into the sandbox: the system's programs and libraries, nothing else. `/etc`,
 * `/root`, `/home` and every other host folder are absent.
 */
export const LOCAL_SANDBOX_SYSTEM_DIRS = Object.freeze(['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64']);

/**
 * The namespaces and process rules of every sandbox: its own user, PID, IPC, UTS and network namespaces (the
 * network one holds only a loopback of its own, so nothing reaches the host or beyond), a new session so it
 * cannot reach the checker's terminal, and `--die-with-parent` so the sandbox ends if the checker dies.
 */
export const LOCAL_SANDBOX_NAMESPACE_ARGS = Object.freeze([
  '--unshare-user',
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-net',
  '--unshare-cgroup-try',
  '--die-with-parent',
  '--new-session',
  '--clearenv',
]);

/** Patterns of a server's last words that mean the memory limit stopped it (V8's and the C library's). */
export const LOCAL_MEMORY_FAILURE = /allocation failed|out of memory|cannot allocate memory|ENOMEM|MemoryError/i;

/** Patterns of a server's last words that mean the process limit stopped it. */
export const LOCAL_PROCESS_FAILURE = /EAGAIN|resource temporarily unavailable|can't start new thread/i;

/** The exit status of a process ended by SIGXCPU: the kernel's CPU time limit. */
export const LOCAL_CPU_LIMIT_EXIT = 128 + 24;
