// Loaded with `node --require` in front of the service the fuzz run starts: every name lookup other than
// localhost fails, and every connection to an address beyond loopback fails, before any packet is sent. Fuzzed
// submissions and owners' forms name hosts of their own (a token file to read, a server to check); with this
// the service takes its own failure path for them and nothing leaves the machine.
'use strict';
const dns = require('node:dns');
const net = require('node:net');
const { syncBuiltinESMExports } = require('node:module');

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

function refusal(host) {
  const error = new Error(`getaddrinfo ENOTFOUND ${host} (the fuzz run allows loopback only)`);
  error.code = 'ENOTFOUND';
  error.hostname = host;
  return error;
}

function loopbackAnswer(host, options) {
  if (host === 'localhost' || LOOPBACK.test(host)) {
    const address = host === 'localhost' ? '127.0.0.1' : host;
    const family = address.includes(':') ? 6 : 4;
    return options?.all ? [{ address, family }] : { address, family };
  }
  return null;
}

const lookup = (host, options, callback) => {
  const done = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'object' ? options : {};
  const answer = loopbackAnswer(host, opts);
  process.nextTick(() => {
    if (answer === null) done(refusal(host));
    else if (opts.all) done(null, answer);
    else done(null, answer.address, answer.family);
  });
};
dns.lookup = lookup;
dns.promises.lookup = async (host, options) => {
  const answer = loopbackAnswer(host, options);
  if (answer === null) throw refusal(host);
  return answer;
};
for (const name of ['resolve', 'resolve4', 'resolve6', 'resolveAny']) {
  dns[name] = (host, ...rest) => process.nextTick(() => rest.at(-1)(refusal(host)));
  dns.promises[name] = async (host) => {
    throw refusal(host);
  };
}
syncBuiltinESMExports();

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function loopbackConnectOnly(...args) {
  const head = args[0];
  const options = Array.isArray(head) ? head[0] : head;
  const host =
    typeof options === 'object' && options !== null ? options.host : typeof args[1] === 'string' ? args[1] : undefined;
  const isPipe = typeof options === 'object' && options !== null && typeof options.path === 'string';
  if (!isPipe && host !== undefined && net.isIP(host) !== 0 && !LOOPBACK.test(host)) {
    process.nextTick(() => this.destroy(refusal(host)));
    return this;
  }
  return connect.apply(this, args);
};
