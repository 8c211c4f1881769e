// Card sounds (issue 41): a soft tick when a card is played and a softer, lower double tick when a trick is taken,
// if the member asked for them (accounts.User's `card_sounds`, data-card-sounds="on" on .table-page); off by default.
// static/js/motion.js says when ("club:table-sound" events, kind "card" or "trick"). Synthesised with WebAudio as the
// your-turn tone is (static/js/turn.js): no sound files. Each sound the page tries to play is counted on .table-page
// (data-card-sounds-played), which browser tests read.
(function () {
  "use strict";

  var page = document.querySelector(".table-page");
  if (!page) return;
  var audio = null; // one AudioContext, made the first time it is needed

  function wanted() {
    return page.getAttribute("data-card-sounds") === "on";
  }

  function noop() {}

  function context() {
    if (audio) return audio;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    try {
      audio = new Context();
    } catch (e) {
      audio = null;
    }
    return audio;
  }

  // A short burst of noise through a band-pass filter: the snap of a card on cloth, well below full volume.
  function tick(ctx, at, pitch, loudness) {
    var length = Math.floor(ctx.sampleRate * 0.05);
    var buffer = ctx.createBuffer(1, length, ctx.sampleRate);
    var samples = buffer.getChannelData(0);
    for (var i = 0; i < length; i++) samples[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / length, 3);
    var source = ctx.createBufferSource();
    source.buffer = buffer;
    var filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.setValueAtTime(pitch, at);
    filter.Q.setValueAtTime(1.2, at);
    var volume = ctx.createGain();
    volume.gain.setValueAtTime(loudness, at);
    source.connect(filter);
    filter.connect(volume);
    volume.connect(ctx.destination);
    source.start(at);
  }

  function sound(ctx, kind) {
    var now = ctx.currentTime;
    if (kind === "trick") {
      tick(ctx, now, 900, 0.12);
      tick(ctx, now + 0.07, 700, 0.1);
    } else {
      tick(ctx, now, 2200, 0.15);
    }
  }

  // Browsers keep a page's audio suspended until the member has interacted with it: then nothing sounds, and nothing
  // is thrown. A resume that succeeds later plays nothing: the card is no news by then.
  document.addEventListener("club:table-sound", function (evt) {
    if (!wanted()) return;
    var kind = evt.detail && evt.detail.kind === "trick" ? "trick" : "card";
    page.setAttribute("data-card-sounds-played", String((parseInt(page.getAttribute("data-card-sounds-played"), 10) || 0) + 1));
    try {
      var ctx = context();
      if (!ctx) return;
      if (ctx.state === "running") sound(ctx, kind);
      else ctx.resume().catch(noop);
    } catch (e) {
      // No sound, then.
    }
  });

  // A click or key is the interaction browsers want before audio may start: ready it then, while sounds are wanted.
  function prime() {
    if (!wanted()) return;
    try {
      var ctx = context();
      if (ctx && ctx.state === "suspended") ctx.resume().catch(noop);
    } catch (e) {
      // Not ready, then.
    }
  }
  document.addEventListener("pointerdown", prime, true);
  document.addEventListener("keydown", prime, true);
})();
