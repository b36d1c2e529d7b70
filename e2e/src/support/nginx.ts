// Real nginx (Debian's nginx with libnginx-mod-http-lua) started on loopback
// with a temp prefix and config (`-p`, `-c`, `daemon off`, error log in the
// temp dir) built from the shipped deploy/nginx files, stopped in t.after.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { holdPort, ROOT, spawnProc, tempDir, until, writeFile, type Proc } from './processes.js';

export const NGINX_BIN = '/usr/sbin/nginx';
const MODULES = '/usr/lib/nginx/modules';
const DEPLOY = join(ROOT, 'deploy', 'nginx');

export interface NginxOptions {
  /** The agent's HTTP port. */
  agentPort: number;
  /** The workload nginx proxies to. */
  upstreamPort: number;
  /** Replaces the handler's check_connect_timeout_ms and check_timeout_ms. */
  checkTimeoutMs?: number;
  /** Rewrites the rendered http{} snippet. */
  editHttpSnippet?: (text: string) => string;
}

export interface NginxProcess extends Proc {
  readonly port: number;
  readonly base: string;
  readonly dir: string;
  errorLog(): string;
}

/** The shipped http{} snippet pointed at the agent and at deploy/nginx/lua. */
export function renderHttpSnippet(agentPort: number): string {
  return readFileSync(join(DEPLOY, 'sluice-http.conf'), 'utf8')
    .replace('/etc/nginx/sluice/lua/', `${join(DEPLOY, 'lua')}/`)
    .replace('agent_port = 8080', `agent_port = ${agentPort}`);
}

/** Writes nginx.conf and the two snippets into `dir` (nginx listening on `port`); answers the nginx.conf path. */
export function writeNginxConfig(dir: string, port: number, opts: NginxOptions): string {
  let http = renderHttpSnippet(opts.agentPort);
  if (opts.checkTimeoutMs !== undefined) {
    http = http.replace(/check_connect_timeout_ms = \d+/, `check_connect_timeout_ms = ${opts.checkTimeoutMs}`).replace(/check_timeout_ms = \d+/, `check_timeout_ms = ${opts.checkTimeoutMs}`);
  }
  writeFile(dir, 'sluice-http.conf', (opts.editHttpSnippet ?? ((s: string) => s))(http));
  writeFile(dir, 'sluice-server.conf', readFileSync(join(DEPLOY, 'sluice-server.conf'), 'utf8'));
  const conf = writeFile(dir, 'nginx.conf', `
load_module ${MODULES}/ndk_http_module.so;
load_module ${MODULES}/ngx_http_lua_module.so;
daemon off;
# One process (no master and worker): stopping it stops all of nginx, and no worker outlives the test.
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/sluice-http.conf;
    upstream app { server 127.0.0.1:${opts.upstreamPort}; keepalive 8; }
    server {
        listen 127.0.0.1:${port};
        include ${dir}/sluice-server.conf;
        location / {
            access_by_lua_block { require("sluice").access() }
            log_by_lua_block { require("sluice").log() }
            proxy_pass http://app;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
    }
}
`);
  return conf;
}

export async function startNginx(t: TestContext, opts: NginxOptions): Promise<NginxProcess> {
  const dir = tempDir(t, 'sluice-nginx-');
  const held = await holdPort(t);
  const port = held.port;
  await new Promise<void>((resolve) => held.server.close(() => resolve()));
  const conf = writeNginxConfig(dir, port, opts);
  execFileSync(NGINX_BIN, ['-t', '-p', dir, '-c', conf, '-e', join(dir, 'error.log')], { stdio: 'pipe' });
  const proc = spawnProc(t, NGINX_BIN, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], process.env as Record<string, string>);
  t.after(async () => {
    if (proc.child.exitCode === null && proc.child.signalCode === null) {
      proc.child.kill('SIGQUIT');
      await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 5000))]);
      // A graceful stop still waiting on kept-alive connections or timers after 5 s is ended.
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    }
  });
  const base = `http://127.0.0.1:${port}`;
  await until(async () => {
    try {
      const r = await fetch(`${base}/_sluice/status`);
      await r.arrayBuffer();
      return r.status === 200;
    } catch {
      return false;
    }
  }, 10_000, 'nginx answering');
  const errorLog = (): string => { try { return readFileSync(join(dir, 'error.log'), 'utf8'); } catch { return ''; } };
  return { ...proc, port, base, dir, errorLog };
}

export interface NginxCounters { checks: number; accepted: number; rejected: number; fail_open: number; flow_ends: number; flow_end_errors: number }

export async function nginxCounters(n: NginxProcess): Promise<NginxCounters> {
  return (await (await fetch(`${n.base}/_sluice/status`)).json()) as NginxCounters;
}
