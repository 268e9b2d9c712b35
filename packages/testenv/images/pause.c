/*
 * The pod sandbox ("pause") process of the locally built images: it holds the pod's namespaces,
 * reaps children it inherits as PID 1 (shared process namespaces), and exits 0 on SIGTERM or
 * SIGINT. Built with `gcc -static`, so the image is this one file.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_stop(int sig) { (void)sig; stop = 1; }

static void on_child(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "-v") == 0 || strcmp(argv[1], "--version") == 0)) {
    puts("flink-standalone pause");
    return 0;
  }
  struct sigaction stop_action = {0}, child_action = {0};
  stop_action.sa_handler = on_stop;
  child_action.sa_handler = on_child;
  child_action.sa_flags = SA_NOCLDSTOP | SA_RESTART;
  if (sigaction(SIGTERM, &stop_action, NULL) < 0 || sigaction(SIGINT, &stop_action, NULL) < 0 ||
      sigaction(SIGCHLD, &child_action, NULL) < 0) {
    perror("pause: sigaction");
    return 1;
  }
  if (getpid() != 1) fputs("pause: warning: not PID 1\n", stderr);
  /* Block the stop signals outside sigsuspend, so none is lost between the check and the wait. */
  sigset_t blocked, waiting;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGTERM);
  sigaddset(&blocked, SIGINT);
  sigprocmask(SIG_BLOCK, &blocked, &waiting);
  sigdelset(&waiting, SIGTERM);
  sigdelset(&waiting, SIGINT);
  while (!stop) sigsuspend(&waiting);
  return 0;
}
