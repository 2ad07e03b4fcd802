// Opens the browser host's WebSocket while the app's script still loads, so
// its handshake (0.1-0.3 s on a first visit) no longer waits for it. The app's
// transport takes it over (websocket-transport.ts, `early`); the host sends
// nothing before it is asked. Only over http(s): not in Electron.
(function () {
  if (location.protocol !== 'http:' && location.protocol !== 'https:') return;
  var token = new URLSearchParams(location.search).get('token');
  var url = (location.protocol === 'https:' ? 'wss' : 'ws') + '://' + location.host + '/ws' + (token ? '?token=' + encodeURIComponent(token) : '');
  try {
    window.__chronoscopeEarlySocket = { socket: new WebSocket(url) };
  } catch (e) {
    // the app opens its own
  }
})();
