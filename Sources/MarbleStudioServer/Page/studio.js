// Marble studio's page: pick a song, build a look from layers, see it with the music, save and render it.
// Everything goes through the HTTP API of docs/STUDIO.md; no framework, no build step.
'use strict';

// ---------------------------------------------------------------- the page's state

const PREVIEW_SIZE = '640x360';
const PREVIEW_FPS = 30;
const BLENDS = ['normal', 'add', 'screen', 'multiply'];
const VIDEO_EXTENSIONS = /\.(mp4|mkv|mov|webm)$/i;
const RUNNING = new Set(['waiting', 'analysing', 'rendering', 'joining']);

const state = {
  token: new URLSearchParams(location.search).get('token'),
  songs: [],
  song: null,                 // {path, folder, title, …}
  shaders: new Map(),         // name → shader description from /api/effects
  features: [],
  look: emptyLook(),
  presetName: '',             // the preset the look was loaded from or saved as
  presetSaved: false,         // whether that preset is one of ours (may be replaced)
  dirty: false,               // the look changed since it was loaded or saved
  renders: new Map(),         // id → RENDER
  milkdrop: { offset: 0, limit: 12, total: 0, q: '' },
};

const $ = (id) => document.getElementById(id);

function emptyLook() {
  return { name: '', description: '', layers: [], analysis: {} };
}

// ---------------------------------------------------------------- talking to the server

/** A URL with the access token as a query parameter (for sockets, media, images and downloads). */
function withToken(url) {
  if (!state.token) return url;
  return url + (url.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(state.token);
}

function query(params) {
  return Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}

function socketURL(path) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${withToken(path)}`;
}

/** Calls the API; resolves to the JSON answer, throws an Error carrying the server's sentence. */
async function api(method, path, body) {
  const headers = {};
  if (state.token) headers['X-Marble-Token'] = state.token;
  let payload;
  if (body instanceof Blob) {
    payload = body;
    headers['Content-Type'] = 'application/octet-stream';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(path, { method, headers, body: payload });
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : {}; } catch { json = null; }
  if (!response.ok) {
    const error = new Error(json?.error ?? `${method} ${path}: HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return json;
}

/** Shows a sentence in the header (errors in red); never in the console, which tests read. */
function say(text, isError = false) {
  const message = $('message');
  message.textContent = text;
  message.title = text;
  message.classList.toggle('error', isError);
}

function sayError(error) {
  say(error.message ?? String(error), true);
}

function formatTime(seconds) {
  if (!Number.isFinite(seconds)) return '–';
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** An element with attributes and children, the page's only way to build markup (no innerHTML). */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// ---------------------------------------------------------------- songs

async function loadSongs() {
  const { songs } = await api('GET', '/api/songs');
  state.songs = songs;
  renderSongList();
  renderBackgroundOptions();
}

function songKey(song) {
  return `${song.folder}:${song.path}`;
}

function songMatches(song, words) {
  const haystack = `${song.title ?? ''} ${song.artist ?? ''} ${song.path}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

function renderSongList() {
  const words = $('song-search').value.toLowerCase().split(/\s+/).filter(Boolean);
  const items = state.songs.filter((song) => songMatches(song, words)).map((song) => {
    const current = state.song && song.path === state.song.path && song.folder === state.song.folder;
    const detail = [song.artist, formatTime(song.duration)].filter(Boolean).join(' · ');
    return el('li', {}, el('button', {
      type: 'button', 'aria-current': current ? 'true' : 'false', title: song.path,
      onclick: () => selectSong(song),
    }, song.title || song.path, el('small', {}, detail)));
  });
  $('song-list').replaceChildren(...items);
  if (items.length === 0) $('song-list').append(el('li', { class: 'hint' }, 'No songs.'));
}

function selectSong(song) {
  state.song = song;
  const audio = $('audio');
  audio.src = withToken('/api/media?' + query({ song: song.path, folder: song.folder }));
  audio.load();
  $('play').disabled = false;
  $('scrub').disabled = false;
  renderSongList();
  renderBackgroundOptions();
  preview.open();
}

async function uploadFile(file) {
  if (!file) return;
  say(`Uploading ${file.name}…`);
  try {
    const { song } = await api('POST', '/api/upload?' + query({ name: file.name }), file);
    await loadSongs();
    say(`Uploaded ${song.path}.`);
    selectSong(state.songs.find((s) => s.path === song.path && s.folder === song.folder) ?? song);
  } catch (error) {
    sayError(error);
  }
}

function setUpDrop() {
  const overlay = $('drop-overlay');
  let depth = 0;
  const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
  document.addEventListener('dragenter', (event) => {
    if (!hasFiles(event)) return;
    depth += 1;
    overlay.hidden = false;
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  document.addEventListener('dragover', (event) => {
    if (hasFiles(event)) event.preventDefault();
  });
  document.addEventListener('drop', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth = 0;
    overlay.hidden = true;
    uploadFile(event.dataTransfer.files[0]);
  });
  $('upload-input').addEventListener('change', (event) => uploadFile(event.target.files[0]));
}

// ---------------------------------------------------------------- the audio transport

function togglePlay() {
  const audio = $('audio');
  if (!state.song) return;
  if (audio.paused) audio.play().catch(sayError);
  else audio.pause();
}

let scrubbing = false;   // the scrub bar is held: the clock does not move it under the pointer

function updateClock() {
  const audio = $('audio');
  const scrub = $('scrub');
  const duration = Number.isFinite(audio.duration) ? audio.duration : (state.song?.duration ?? 0);
  scrub.max = String(duration);
  if (!scrubbing) scrub.value = String(audio.currentTime);
  $('clock').value = `${formatTime(audio.currentTime)} / ${formatTime(duration)}`;
}

function setUpTransport() {
  const audio = $('audio');
  const play = $('play');
  play.addEventListener('click', togglePlay);
  const showPlaying = (playing) => {
    play.textContent = playing ? '❚❚' : '▶';
    play.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    preview.moved();
  };
  audio.addEventListener('play', () => showPlaying(true));
  audio.addEventListener('pause', () => showPlaying(false));
  audio.addEventListener('timeupdate', updateClock);
  audio.addEventListener('durationchange', updateClock);
  $('scrub').addEventListener('pointerdown', () => { scrubbing = true; });
  $('scrub').addEventListener('pointerup', () => { scrubbing = false; });
  $('scrub').addEventListener('input', (event) => {
    audio.currentTime = Number(event.target.value);
    updateClock();
    preview.moved();
  });
  document.addEventListener('keydown', (event) => {
    if (event.code !== 'Space' && event.key !== ' ') return;
    if (event.target.closest('input, select, textarea, button, a, summary, [contenteditable]')) return;
    event.preventDefault();
    togglePlay();
  });
}

// ---------------------------------------------------------------- the preview socket

/**
 * The live preview over `/api/preview`: the look goes out at most once per animation frame, frames are
 * asked for at the audio clock plus the measured round trip (at most two in flight), and each JPEG is
 * drawn when its time comes due against `audio.currentTime`.
 */
const preview = {
  socket: null,
  opened: null,             // the server's `opened` answer
  nextId: 1,
  inFlight: new Map(),      // id → {at: performance.now() when asked, generation, paused}
  lastAsked: -1,            // frame index last asked for while playing
  roundTrip: 0.05,          // seconds, smoothed
  roundTripDeviation: 0.01, // seconds, smoothed: frames are asked for this much earlier (twice) so few come late
  queue: [],                // [{time, index, id, bitmap}] decoded and waiting to be due
  lookDirty: false,
  openFailed: false,        // the server refused the open (a bad look): the next change tries again
  needFrame: false,         // paused: ask for the frame at the current time
  drawnAt: [],              // performance.now() of recent draws, for the fps
  changedAt: 0,             // performance.now() of the first change not yet on the canvas
  firstIdAfterChange: 0,    // the first frame asked for with the changed look
  generation: 0,            // bumps on a scrub: frames asked for before it are dropped

  open() {
    this.close();
    if (!state.song) return;
    const socket = new WebSocket(socketURL('/api/preview'));
    socket.binaryType = 'arraybuffer';
    socket.addEventListener('open', () => {
      this.lookDirty = false;
      socket.send(JSON.stringify(this.openMessage()));
    });
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      const wasOpen = this.opened !== null;
      this.socket = null;
      this.opened = null;
      $('preview-state').textContent = 'preview closed';
      if (wasOpen) setTimeout(() => { if (!this.socket) this.open(); }, 2000);
    });
    this.socket = socket;
    $('preview-state').textContent = 'opening…';
  },

  close() {
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      socket.close();
    }
    this.opened = null;
    this.inFlight.clear();
    this.dropQueue();
  },

  openMessage() {
    return {
      type: 'open', song: state.song.path, folder: state.song.folder,
      look: previewLook(), settings: previewSettings(), size: PREVIEW_SIZE, fps: PREVIEW_FPS,
    };
  },

  receive(data) {
    if (typeof data !== 'string') {
      this.frameArrived(data);
      return;
    }
    let message;
    try { message = JSON.parse(data); } catch { return; }
    if (message.type === 'opened') {
      this.opened = message;
      const canvas = $('preview');
      canvas.width = message.width;
      canvas.height = message.height;
      $('preview-state').textContent = `${message.width}x${message.height} at ${message.fps} fps`;
      this.moved();
    } else if (message.type === 'error') {
      if (!this.opened) this.openFailed = true;
      say(`Preview: ${message.error}`, true);
    }
  },

  /** The look or settings changed: send them with the next animation frame. */
  changed() {
    if (!this.changedAt) this.changedAt = performance.now();
    this.lookDirty = true;
    this.needFrame = true;
  },

  /** The clock jumped or stopped: forget frames on their way, show the new moment. */
  moved() {
    this.generation += 1;
    this.lastAsked = -1;
    this.needFrame = true;
    this.dropQueue();
  },

  dropQueue() {
    for (const frame of this.queue) frame.bitmap.close();
    this.queue = [];
  },

  async frameArrived(buffer) {
    if (buffer.byteLength < 16) return;
    const header = new DataView(buffer, 0, 16);
    const id = header.getUint32(0, true);
    const index = header.getUint32(4, true);
    const time = header.getFloat64(8, true);
    const asked = this.inFlight.get(id);
    if (asked === undefined) return;
    this.inFlight.delete(id);
    const seconds = (performance.now() - asked.at) / 1000;
    this.roundTripDeviation = this.roundTripDeviation * 0.75 + Math.abs(seconds - this.roundTrip) * 0.25;
    this.roundTrip = this.roundTrip * 0.875 + seconds * 0.125;
    $('preview-latency').textContent = `${Math.round(this.roundTrip * 1000)} ms`;
    if (asked.generation !== this.generation) return;
    let bitmap;
    try {
      bitmap = await createImageBitmap(new Blob([buffer.slice(16)], { type: 'image/jpeg' }));
    } catch {
      say('Preview: a frame could not be decoded.', true);
      return;
    }
    if (asked.generation !== this.generation) { bitmap.close(); return; }
    this.queue.push({ id, index, time, bitmap, paused: asked.paused });
    this.queue.sort((a, b) => a.time - b.time);
  },

  /** Called on every animation frame: sends the look, asks for frames, draws the due one. */
  tick() {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    if (!this.opened) {
      if (this.openFailed && this.lookDirty) {
        this.openFailed = this.lookDirty = false;
        this.socket.send(JSON.stringify(this.openMessage()));
      }
      return;
    }
    if (this.lookDirty) {
      this.lookDirty = false;
      this.firstIdAfterChange = this.nextId;
      this.socket.send(JSON.stringify({ type: 'look', look: previewLook(), settings: previewSettings() }));
    }
    this.ask();
    this.draw();
  },

  ask() {
    const now = performance.now();
    for (const [id, asked] of this.inFlight) if (now - asked.at > 3000) this.inFlight.delete(id);  // lost
    if (this.inFlight.size >= 2) return;
    const audio = $('audio');
    const fps = this.opened.fps;
    if (audio.paused) {
      if (!this.needFrame) return;
      this.needFrame = false;
      this.request(audio.currentTime, true);
      return;
    }
    const lead = this.roundTrip + 2 * this.roundTripDeviation;
    const index = Math.round((audio.currentTime + lead) * fps);
    if (index <= this.lastAsked && !this.needFrame) return;
    this.needFrame = false;
    this.lastAsked = Math.max(index, this.lastAsked + 1);
    this.request(this.lastAsked / fps, false);
  },

  request(time, paused) {
    const duration = this.opened.duration;
    const clamped = Math.max(0, Math.min(time, Number.isFinite(duration) ? duration : time));
    const id = this.nextId++;
    this.inFlight.set(id, { at: performance.now(), generation: this.generation, paused });
    this.socket.send(JSON.stringify({ type: 'frame', id, time: clamped }));
  },

  /** Draws the newest frame that is due (within half a frame of the clock); paused, the newest one. */
  draw() {
    const audio = $('audio');
    const half = 0.5 / this.opened.fps;
    let due = -1;
    for (let i = 0; i < this.queue.length; i++) {
      const frame = this.queue[i];
      if (audio.paused || frame.paused || frame.time <= audio.currentTime + half) due = i;
    }
    if (due < 0) return;
    const frame = this.queue[due];
    for (const old of this.queue.splice(0, due + 1)) if (old !== frame) old.bitmap.close();
    const canvas = $('preview');
    canvas.getContext('2d').drawImage(frame.bitmap, 0, 0, canvas.width, canvas.height);
    frame.bitmap.close();
    this.shown(frame, audio.currentTime);
  },

  /** Records what is on the canvas (its time, for the status line and the browser test). */
  shown(frame, clock) {
    const canvas = $('preview');
    canvas.dataset.frameTime = String(frame.time);
    canvas.dataset.frameIndex = String(frame.index);
    canvas.dataset.clock = String(clock);
    canvas.dataset.frames = String(Number(canvas.dataset.frames ?? 0) + 1);
    const now = performance.now();
    this.drawnAt.push(now);
    while (this.drawnAt.length && this.drawnAt[0] < now - 1000) this.drawnAt.shift();
    $('preview-offset').textContent = `${Math.round((clock - frame.time) * 1000)} ms`;
    if (this.changedAt && frame.id >= this.firstIdAfterChange) {   // the change is on the canvas
      canvas.dataset.changeMs = String(Math.round(now - this.changedAt));
      this.changedAt = 0;
    }
  },

  /** The status line's fps: frames drawn in the last second. */
  updateStats() {
    const now = performance.now();
    while (this.drawnAt.length && this.drawnAt[0] < now - 1000) this.drawnAt.shift();
    $('preview-fps').textContent = `${this.drawnAt.length} fps`;
  },
};

function animationLoop() {
  preview.tick();
  requestAnimationFrame(animationLoop);
}

// ---------------------------------------------------------------- the look

/** The look as the server wants it: parameters and bindings only where set. */
function lookForServer() {
  const look = state.look;
  return {
    name: look.name || state.presetName || 'studio',
    description: look.description ?? '',
    layers: look.layers.map((layer) => {
      const out = { shader: layer.shader, blend: layer.blend ?? 'normal', opacity: layer.opacity ?? 1 };
      if (layer.parameters && Object.keys(layer.parameters).length) out.parameters = layer.parameters;
      if (layer.bind && Object.keys(layer.bind).length) out.bind = layer.bind;
      return out;
    }),
    analysis: look.analysis ?? {},
  };
}

/** What the preview draws: the look, or a black frame while it has no layer (a preset needs one). */
function previewLook() {
  const look = lookForServer();
  if (look.layers.length === 0) look.layers = [{ shader: 'solid', blend: 'normal', opacity: 1 }];
  return look;
}

function lookChanged() {
  state.dirty = true;
  preview.changed();
}

function setLook(look, name, saved) {
  state.look = {
    ...emptyLook(), ...look,
    layers: (look.layers ?? []).map((layer) => ({
      blend: 'normal', opacity: 1, ...layer,
      parameters: { ...(layer.parameters ?? {}) }, bind: { ...(layer.bind ?? {}) },
    })),
  };
  state.presetName = name;
  state.presetSaved = saved;
  state.dirty = false;
  if (saved) $('save-name').value = name;
  renderLayers();
  preview.changed();
}

async function loadPresets(selected) {
  const { presets } = await api('GET', '/api/presets');
  const bundled = presets.filter((p) => !p.saved).map((p) => el('option', { value: p.name }, p.name));
  const saved = presets.filter((p) => p.saved).map((p) => el('option', { value: p.name, 'data-saved': 'true' }, p.name));
  const select = $('preset-select');
  select.replaceChildren(
    el('option', { value: '' }, 'empty'),
    el('optgroup', { label: 'Bundled' }, bundled),
    saved.length ? el('optgroup', { label: 'Saved' }, saved) : null,
  );
  if (selected !== undefined) select.value = selected;
}

async function choosePreset() {
  const select = $('preset-select');
  const name = select.value;
  if (!name) {
    setLook(emptyLook(), '', false);
    return;
  }
  const saved = select.selectedOptions[0]?.dataset.saved === 'true';
  try {
    const preset = await api('GET', '/api/presets/' + encodeURIComponent(name));
    setLook(preset.look, name, saved);
    say(`Preset ${name}.`);
  } catch (error) {
    sayError(error);
  }
}

async function loadEffects() {
  const effects = await api('GET', '/api/effects');
  state.features = effects.features ?? [];
  for (const shader of effects.shaders) state.shaders.set(shader.name, shader);
  const options = effects.shaders.map((s) => el('option', { value: s.name, title: s.summary }, `${s.name} (${s.kind})`));
  $('shader-select').replaceChildren(...options);
}

function addLayer() {
  const shader = $('shader-select').value;
  if (!shader) return;
  state.look.layers.push({ shader, blend: 'normal', opacity: 1, parameters: {}, bind: {} });
  renderLayers();
  lookChanged();
  $('layers').lastElementChild?.querySelector('select, input')?.focus();
}

function removeLayer(index) {
  state.look.layers.splice(index, 1);
  renderLayers();
  lookChanged();
  const buttons = $('layers').querySelectorAll('.remove');
  (buttons[Math.min(index, buttons.length - 1)] ?? $('add-layer')).focus();
}

function moveLayer(index, step) {
  const layers = state.look.layers;
  const to = index + step;
  if (to < 0 || to >= layers.length) return;
  [layers[index], layers[to]] = [layers[to], layers[index]];
  renderLayers();
  lookChanged();
  const items = $('layers').children;
  const button = items[to]?.querySelector(step < 0 ? '.up' : '.down');
  (button && !button.disabled ? button : items[to]?.querySelector('button'))?.focus();
}

// ---------------------------------------------------------------- the layer controls

function renderLayers() {
  const items = state.look.layers.map((layer, index) => renderLayer(layer, index));
  $('layers').replaceChildren(...items);
  if (items.length === 0) $('layers').append(el('li', { class: 'hint' }, 'No layers: add one, or start from a preset.'));
}

function renderLayer(layer, index) {
  const count = state.look.layers.length;
  const shader = state.shaders.get(layer.shader);
  const id = `layer${index}`;
  const header = el('header', {},
    el('strong', { id: `${id}-name` }, `${index + 1}. ${layer.shader}`),
    el('button', { type: 'button', class: 'up', disabled: index === 0, 'aria-label': `Move ${layer.shader} up`,
      onclick: () => moveLayer(index, -1) }, '↑'),
    el('button', { type: 'button', class: 'down', disabled: index === count - 1,
      'aria-label': `Move ${layer.shader} down`, onclick: () => moveLayer(index, 1) }, '↓'),
    el('button', { type: 'button', class: 'remove', 'aria-label': `Remove ${layer.shader}`,
      onclick: () => removeLayer(index) }, '✕'));
  const body = el('div', { class: 'body' }, blendControl(layer, id), opacityControl(layer, id),
    ...(shader ? shader.parameters.map((p) => parameterControl(layer, p, `${id}-${p.name}`)) : [
      el('p', { class: 'hint' }, `Unknown shader ${layer.shader}.`)]));
  return el('li', { class: 'layer', 'aria-labelledby': `${id}-name` }, header, body);
}

function row(id, label, help, ...controls) {
  return el('div', { class: 'param' }, el('label', { for: id, title: help ?? label }, label),
    el('div', { class: 'value' }, ...controls));
}

function blendControl(layer, id) {
  const select = el('select', { id: `${id}-blend`, onchange: (e) => { layer.blend = e.target.value; lookChanged(); } },
    BLENDS.map((b) => el('option', { value: b, selected: b === layer.blend }, b)));
  return row(`${id}-blend`, 'blend', 'How the layer mixes with those below it.', select);
}

function opacityControl(layer, id) {
  const parameter = { name: 'opacity', type: 'number', min: 0, max: 1 };
  return row(`${id}-opacity`, 'opacity', 'How much of the layer shows.',
    ...numberInputs(`${id}-opacity`, parameter, layer.opacity ?? 1, (value) => { layer.opacity = value; lookChanged(); }));
}

/** The default of a parameter as the type it has in a LOOK (the catalogue gives defaults as text). */
function defaultValue(parameter) {
  const text = parameter.default;
  switch (parameter.type) {
    case 'number': case 'integer': return Number(text);
    case 'flag': return text === 'true';
    case 'text': return text === '(none)' ? '' : text;
    default: return text;
  }
}

function parameterControl(layer, parameter, id) {
  const current = layer.parameters[parameter.name] ?? defaultValue(parameter);
  const set = (value) => {
    if (value === defaultValue(parameter)) delete layer.parameters[parameter.name];
    else layer.parameters[parameter.name] = value;
    lookChanged();
  };
  const controls = controlsFor(parameter, current, set, id);
  const item = row(id, parameter.name, parameter.help, ...controls);
  if (parameter.bindable) appendBinding(item, layer, parameter, id);
  return item;
}

function controlsFor(parameter, current, set, id) {
  switch (parameter.type) {
    case 'number': case 'integer': return numberInputs(id, parameter, current, set);
    case 'color': return colorInputs(id, parameter, current, set);
    case 'choice':
      return [el('select', { id, onchange: (e) => set(e.target.value) },
        (parameter.options ?? []).map((o) => el('option', { value: o, selected: o === current }, o)))];
    case 'flag':
      return [el('input', { id, type: 'checkbox', checked: current === true || current === 'true',
        onchange: (e) => set(e.target.checked) })];
    default:
      return [el('input', { id, type: 'text', value: String(current ?? ''), placeholder: parameter.default,
        onchange: (e) => set(e.target.value) })];
  }
}

/** A range and a number input kept in step; integers round, both clamp to the parameter's range. */
function numberInputs(id, parameter, current, set) {
  const integer = parameter.type === 'integer';
  const min = parameter.min ?? 0;
  const max = parameter.max ?? Math.max(1, Number(current) * 2);
  const step = integer ? 1 : niceStep(max - min);
  const attributes = { min, max, step, value: String(current) };
  const range = el('input', { ...attributes, type: 'range', 'aria-label': `${parameter.name} slider` });
  const number = el('input', { ...attributes, id, type: 'number' });
  const commit = (source, other) => {
    let value = Number(source.value);
    if (!Number.isFinite(value)) return;
    value = Math.min(max, Math.max(min, integer ? Math.round(value) : value));
    other.value = String(value);
    set(value);
  };
  range.addEventListener('input', () => commit(range, number));
  number.addEventListener('change', () => { commit(number, range); number.value = range.value; });
  return [range, number];
}

function niceStep(span) {
  if (!(span > 0)) return 0.01;
  return Math.pow(10, Math.floor(Math.log10(span)) - 2);
}

/** A colour picker, with an alpha slider when the default (or the value) has an alpha byte. */
function colorInputs(id, parameter, current, set) {
  const text = String(current || parameter.default || '#000000');
  const hasAlpha = /^#[0-9a-f]{8}$/i.test(parameter.default ?? '') || /^#[0-9a-f]{8}$/i.test(text);
  const picker = el('input', { id, type: 'color', value: text.slice(0, 7) });
  const alphaByte = hasAlpha ? parseInt(text.slice(7, 9) || 'ff', 16) : 255;
  const alpha = el('input', { type: 'range', min: 0, max: 255, step: 1, value: String(alphaByte),
    'aria-label': `${parameter.name} alpha` });
  const commit = () => {
    const a = Number(alpha.value).toString(16).padStart(2, '0');
    set(hasAlpha ? picker.value + a : picker.value);
  };
  picker.addEventListener('input', commit);
  alpha.addEventListener('input', commit);
  return hasAlpha ? [picker, alpha] : [picker];
}

/** The "bind" toggle and its feature, amount and smoothing under a bindable number. */
function appendBinding(item, layer, parameter, id) {
  const bound = layer.bind[parameter.name];
  const toggle = el('button', { type: 'button', class: 'bind-toggle', 'aria-pressed': bound ? 'true' : 'false',
    'aria-controls': `${id}-bind`, 'aria-label': `Bind ${parameter.name} to the music` }, 'bind');
  item.append(toggle);
  const panel = bindingPanel(layer, parameter, id);
  panel.hidden = !bound;
  item.append(panel);
  toggle.addEventListener('click', () => {
    const on = toggle.getAttribute('aria-pressed') !== 'true';
    toggle.setAttribute('aria-pressed', String(on));
    panel.hidden = !on;
    if (on) layer.bind[parameter.name] = readBinding(panel);
    else delete layer.bind[parameter.name];
    lookChanged();
    if (on) panel.querySelector('select').focus();
  });
}

function bindingPanel(layer, parameter, id) {
  const binding = layer.bind[parameter.name] ?? { feature: state.features.includes('bass') ? 'bass' : state.features[0],
    amount: defaultAmount(parameter), smoothing: 0.5 };
  const update = () => { layer.bind[parameter.name] = { ...layer.bind[parameter.name], ...readBinding(panel) }; lookChanged(); };
  const panel = el('div', { class: 'bind', id: `${id}-bind` },
    el('label', {}, 'follows', el('select', { class: 'feature', onchange: update },
      state.features.map((f) => el('option', { value: f, selected: f === binding.feature }, f)))),
    el('label', {}, 'amount', el('input', { class: 'amount', type: 'number', step: 'any', value: String(binding.amount ?? 1),
      onchange: update })),
    el('label', {}, 'smoothing', el('input', { class: 'smoothing', type: 'number', min: 0, max: 0.99, step: 0.01,
      value: String(binding.smoothing ?? 0), onchange: update })));
  return panel;
}

/** A quarter of the parameter's span: enough to see, not enough to pin it to the top. */
function defaultAmount(parameter) {
  const span = (parameter.max ?? 1) - (parameter.min ?? 0);
  const amount = span / 4;
  return parameter.type === 'integer' ? Math.max(1, Math.round(amount)) : Number(amount.toPrecision(2));
}

function readBinding(panel) {
  const amount = Number(panel.querySelector('.amount').value);
  const smoothing = Math.min(0.99, Math.max(0, Number(panel.querySelector('.smoothing').value) || 0));
  return { feature: panel.querySelector('.feature').value, amount: Number.isFinite(amount) ? amount : 1, smoothing };
}

// ---------------------------------------------------------------- title, background and render settings

function previewSettings() {
  const settings = { fit: $('set-fit').value };
  const title = $('set-title').value.trim();
  if (title) settings.title = title;
  const background = $('set-background').value;
  if (background === 'cover' || background === 'none') settings.background = background;
  else {
    const song = state.songs.find((s) => songKey(s) === background);
    if (song) settings.background = { song: song.path, folder: song.folder };
  }
  return settings;
}

function renderSettings() {
  return {
    ...previewSettings(),
    size: $('render-size').value.trim(),
    fps: Number($('render-fps').value),
    format: $('render-format').value,
    segments: Number($('render-segments').value),
  };
}

function renderBackgroundOptions() {
  const select = $('set-background');
  const current = select.value;
  const videos = state.songs.filter((song) => VIDEO_EXTENSIONS.test(song.path));
  select.replaceChildren(
    el('option', { value: 'none' }, 'none'),
    el('option', { value: 'cover', disabled: state.song && !state.song.cover }, "the song's cover"),
    videos.length ? el('optgroup', { label: 'A video' },
      videos.map((song) => el('option', { value: songKey(song) }, song.path))) : null);
  const usable = [...select.options].some((o) => o.value === current && !o.disabled);
  select.value = usable ? current : 'none';
}

function setUpSettings() {
  for (const id of ['set-title', 'set-background', 'set-fit']) {
    $(id).addEventListener(id === 'set-title' ? 'input' : 'change', () => preview.changed());
  }
}

// ---------------------------------------------------------------- saving, the command and renders

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

async function savePreset(replace) {
  const name = $('save-name').value.trim();
  if (!NAME_PATTERN.test(name)) throw new Error('Preset name: 1–64 letters, digits, - or _.');
  const look = { ...lookForServer(), name };
  const saved = await api('POST', '/api/presets', { name, look, replace });
  state.look.name = name;
  state.presetName = name;
  state.presetSaved = true;
  state.dirty = false;
  await loadPresets(name);
  say(`Saved ${saved.path}.`);
  return saved;
}

/** The preset a render or a command names: the loaded one, or the look saved first when changed. */
async function presetForRender() {
  if (state.presetName && !state.dirty) return state.presetName;
  const name = $('save-name').value.trim();
  if (!name) throw new Error('Name the preset first: a render reads the saved file.');
  const replace = $('save-replace').checked || (state.presetSaved && name === state.presetName);
  await savePreset(replace);
  return name;
}

async function renderBody() {
  if (!state.song) throw new Error('Pick a song first.');
  const preset = await presetForRender();
  return { song: state.song.path, folder: state.song.folder, preset, settings: renderSettings() };
}

async function copyCommand() {
  try {
    const { command } = await api('POST', '/api/command', await renderBody());
    $('command').textContent = command;
    try {
      await navigator.clipboard.writeText(command);
      say('Command copied.');
    } catch {
      selectText($('command'));
      say('Command shown below (select and copy it).');
    }
  } catch (error) {
    sayError(error);
  }
}

function selectText(node) {
  const range = document.createRange();
  range.selectNodeContents(node);
  const selection = getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

async function startRender(event) {
  event.preventDefault();
  try {
    const { render } = await api('POST', '/api/renders', await renderBody());
    if (!state.renders.has(render.id)) state.renders.set(render.id, render);  // the events socket may be ahead
    renderRenders();
    say(`Render ${render.id} queued.`);
  } catch (error) {
    sayError(error);
  }
}

/** Asks for the cancel; the events socket brings the state (the answer may be older than its news). */
async function cancelRender(id) {
  try {
    await api('DELETE', '/api/renders/' + encodeURIComponent(id));
  } catch (error) {
    sayError(error);
  }
}

function renderNumber(id) {
  return Number(String(id).replace(/\D/g, '')) || 0;
}

/** Redraws the list (several times a second while rendering), keeping the focus on the same control. */
function renderRenders() {
  const focused = document.activeElement?.closest('#renders li') ? document.activeElement : null;
  const where = focused && [focused.closest('li').dataset.id, focused.className];
  const renders = [...state.renders.values()].sort((a, b) => renderNumber(b.id) - renderNumber(a.id));
  $('renders').replaceChildren(...renders.map(renderItem));
  if (where) $('renders').querySelector(`li[data-id="${CSS.escape(where[0])}"] .${where[1]}`)?.focus();
}

function renderItem(render) {
  const running = RUNNING.has(render.state);
  const top = el('div', { class: 'top' },
    el('span', { class: 'name', title: render.command ?? '' }, render.output ?? render.id),
    el('span', { class: `state state-${render.state}` }, render.state),
    running ? el('button', { type: 'button', class: 'cancel', 'aria-label': `Cancel ${render.output ?? render.id}`,
      onclick: () => cancelRender(render.id) }, 'Cancel') : null,
    render.state === 'done' ? el('a', { class: 'download', download: render.output ?? '',
      href: withToken(`/api/renders/${encodeURIComponent(render.id)}/file`) }, 'Download') : null);
  const total = Math.max(1, render.totalFrames ?? 0);
  const done = render.state === 'done' ? total : Math.min(total, render.frames ?? 0);
  const meta = [`${render.frames ?? 0} / ${render.totalFrames ?? '?'} frames`];
  if (running && render.fps) meta.push(`${render.fps.toFixed(1)} fps`);
  if (running && Number.isFinite(render.eta)) meta.push(`ETA ${formatTime(render.eta)}`);
  if (render.bytes) meta.push(`${(render.bytes / 1e6).toFixed(1)} MB`);
  return el('li', { class: 'render', 'data-id': render.id, 'data-state': render.state },
    top,
    el('progress', { max: total, value: done, 'aria-label': `Progress of ${render.output ?? render.id}` }),
    el('div', { class: 'meta' }, meta.join(' · ')),
    render.error ? el('div', { class: 'error' }, render.error) : null);
}

/** The `/api/events` socket: the whole list on connect, then one render per change; reconnects. */
function connectEvents(delay = 1000) {
  const socket = new WebSocket(socketURL('/api/events'));
  socket.addEventListener('open', () => { delay = 1000; });
  socket.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') return;
    const message = JSON.parse(event.data);
    if (message.type === 'renders') {
      state.renders = new Map(message.renders.map((r) => [r.id, r]));
    } else if (message.type === 'render') {
      state.renders.set(message.render.id, message.render);
    }
    renderRenders();
  });
  socket.addEventListener('close', () => setTimeout(() => connectEvents(Math.min(delay * 2, 30000)), delay));
}

// ---------------------------------------------------------------- the MilkDrop browser

async function loadMilkdrop() {
  const m = state.milkdrop;
  try {
    const answer = await api('GET', '/api/milkdrop?' + query({ offset: m.offset, limit: m.limit, q: m.q }));
    m.total = answer.total;
    renderMilkdrop(answer.presets);
  } catch (error) {
    sayError(error);
  }
}

function renderMilkdrop(presets) {
  const m = state.milkdrop;
  const items = presets.map((preset) => {
    const path = typeof preset === 'string' ? preset : preset.path;   // relative to the MilkDrop folder
    const name = path.split('/').pop().replace(/\.milk$/i, '');
    const src = withToken('/api/milkdrop/thumbnail?' + query({ path }));
    return el('li', {}, el('button', { type: 'button', title: path, onclick: () => chooseMilkdrop(path) },
      el('img', { src, alt: '', loading: 'lazy', width: 160, height: 90 }), name));
  });
  $('milkdrop-list').replaceChildren(...items);
  const page = Math.floor(m.offset / m.limit) + 1;
  const pages = Math.max(1, Math.ceil(m.total / m.limit));
  $('milkdrop-page').textContent = `${page} / ${pages} (${m.total})`;
  $('milkdrop-prev').disabled = m.offset === 0;
  $('milkdrop-next').disabled = m.offset + m.limit >= m.total;
}

function chooseMilkdrop(path) {
  const look = { ...emptyLook(), layers: [{ shader: 'milkdrop', blend: 'normal', opacity: 1, parameters: { file: path } }] };
  setLook(look, '', false);
  $('preset-select').value = '';
  state.dirty = true;
  say(`MilkDrop: ${path}`);
}

function setUpMilkdrop() {
  const m = state.milkdrop;
  const panel = $('milkdrop-panel');
  let loaded = false;
  panel.addEventListener('toggle', () => {
    if (panel.open && !loaded) { loaded = true; loadMilkdrop(); }
  });
  let timer = 0;
  $('milkdrop-search').addEventListener('input', (event) => {
    clearTimeout(timer);
    timer = setTimeout(() => { m.q = event.target.value; m.offset = 0; loadMilkdrop(); }, 250);
  });
  $('milkdrop-prev').addEventListener('click', () => { m.offset = Math.max(0, m.offset - m.limit); loadMilkdrop(); });
  $('milkdrop-next').addEventListener('click', () => { m.offset += m.limit; loadMilkdrop(); });
  // Offered only when the server has a MilkDrop folder: a first small query decides.
  api('GET', '/api/milkdrop?' + query({ offset: 0, limit: 1, q: '' }))
    .then((answer) => { panel.hidden = !(answer.total > 0); })
    .catch(() => { panel.hidden = true; });
}

// ---------------------------------------------------------------- start

function setUpForms() {
  $('song-search').addEventListener('input', renderSongList);
  $('preset-select').addEventListener('change', choosePreset);
  $('add-layer').addEventListener('click', addLayer);
  $('save-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    try { await savePreset($('save-replace').checked); } catch (error) { sayError(error); }
  });
  $('copy-command').addEventListener('click', copyCommand);
  $('render-form').addEventListener('submit', startRender);
}

async function start() {
  setUpDrop();
  setUpTransport();
  setUpSettings();
  setUpForms();
  setUpMilkdrop();
  renderLayers();
  setInterval(() => preview.updateStats(), 500);
  requestAnimationFrame(animationLoop);
  connectEvents();
  try {
    await Promise.all([loadEffects(), loadPresets(), loadSongs()]);
    renderLayers();
    say(state.songs.length ? 'Pick a song.' : 'No songs in the folders: drop one onto the page.');
  } catch (error) {
    sayError(error);
  }
}

start();
