// End-to-end session with tengen driven by @sabaki/gtp, the GTP library inside Sabaki, used the
// way Sabaki uses it: pipelined commands on attach and during position syncs, analysis streamed
// line by line and stopped with `protocol_version`, moves generated with `genmove` and
// `kata-genmove_analyze`.
//
// Usage: node session.mjs <engine binary> [engine args...]
// Prints what it checked and exits 0, or prints the failure, the last GTP traffic and the
// engine's stderr, and exits 1. Never runs longer than OVERALL_TIMEOUT_MS.

import gtp from '@sabaki/gtp'

const {Controller, ControllerStateTracker, Command} = gtp

const OVERALL_TIMEOUT_MS = 60_000
// Sabaki kills an engine that has not exited this long after `quit`.
const QUIT_TIMEOUT_MS = 3_000
// How long the engine may take to end an analysis once the next command has arrived.
const STOP_TIMEOUT_MS = 2_000
const SIZE = 9
const COLUMNS = 'ABCDEFGHJ' // GTP columns skip I

const [enginePath, ...engineArgs] = process.argv.slice(2)
if (enginePath == null) {
  console.error('usage: node session.mjs <engine binary> [engine args...]')
  process.exit(2)
}

// ---------------------------------------------------------------------------------------------
// Failure reporting: the step being run, the last GTP traffic, and the engine's stderr kept
// apart from its GTP output.

let step = 'starting'
let quitting = false
const traffic = [] // last commands and response lines, for the failure report
const engineStderr = []

function remember(entry) {
  traffic.push(entry)
  if (traffic.length > 40) traffic.shift()
}

let controller = null

function fail(message) {
  console.log(`FAIL during "${step}": ${message}`)
  console.log('--- last GTP traffic (> sent, < received) ---')
  for (const entry of traffic) console.log(entry)
  console.log('--- engine stderr ---')
  for (const line of engineStderr.slice(-40)) console.log(line)
  if (controller?.process != null) controller.process.kill('SIGKILL')
  process.exit(1)
}

function check(condition, message) {
  if (!condition) fail(message)
}

process.on('uncaughtException', err => fail(`exception: ${err.stack ?? err}`))
process.on('unhandledRejection', err => fail(`unhandled rejection: ${err?.stack ?? err}`))
setTimeout(() => fail(`timed out after ${OVERALL_TIMEOUT_MS / 1000} s`), OVERALL_TIMEOUT_MS)

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// Resolves with `promise`, or fails the test if it takes longer than `ms`.
function within(ms, what, promise) {
  let timer
  const timeout = new Promise(() => {
    timer = setTimeout(() => fail(`${what} took longer than ${ms} ms`), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

// ---------------------------------------------------------------------------------------------
// Vertices and the analysis format

const VERTEX = /^[A-Za-z]\d+$/ // what Sabaki accepts as an analysed move

function onBoard(vertex) {
  if (!VERTEX.test(vertex)) return false
  const column = COLUMNS.indexOf(vertex[0].toUpperCase())
  const row = Number(vertex.slice(1))
  return column >= 0 && row >= 1 && row <= SIZE
}

// Splits an analysis line into its `info` blocks. Each block is `key value` pairs (one value
// token per key), then `pv` followed by moves up to the next `info` or the line's end, which is
// the shape Sabaki's parser relies on. Returns [{fields, pv}] or throws with the reason.
function parseInfoLine(line) {
  const tokens = line.trim().split(/\s+/)
  if (tokens[0] !== 'info') throw new Error('does not start with "info"')
  const blocks = []
  let block = null
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i]
    if (token === 'info') {
      block = {fields: {}, pv: null}
      blocks.push(block)
      i += 1
    } else if (block.pv != null) {
      block.pv.push(token)
      i += 1
    } else if (token === 'pv') {
      block.pv = []
      i += 1
    } else {
      const value = tokens[i + 1]
      if (!/^[A-Za-z]+$/.test(token)) throw new Error(`"${token}" is not a key`)
      if (value == null || value === 'info' || value === 'pv')
        throw new Error(`key "${token}" has no value`)
      if (token in block.fields) throw new Error(`key "${token}" repeated`)
      block.fields[token] = value
      i += 2
    }
  }
  return blocks
}

const isInteger = text => /^\d+$/.test(text)
const isNumber = text => text.trim() !== '' && Number.isFinite(Number(text))

// Checks one analysis line in the `kata` (0–1 floats) or `lz` (integers ×10000) dialect.
// `occupied` holds the stones on the board: no analysed move may be there.
function checkInfoLine(line, dialect, occupied) {
  let blocks
  try {
    blocks = parseInfoLine(line)
  } catch (err) {
    fail(`bad analysis line (${err.message}): ${line}`)
  }
  const where = `in analysis line: ${line}`
  blocks.forEach((block, index) => {
    const f = block.fields
    for (const key of ['move', 'visits', 'winrate', 'prior', 'lcb', 'order'])
      check(key in f, `block ${index} has no "${key}" ${where}`)
    check(block.pv != null && block.pv.length > 0, `block ${index} has no pv ${where}`)
    // Sabaki drops `move pass` silently; any other move must be a vertex on this board.
    check(f.move === 'pass' || onBoard(f.move), `move "${f.move}" is not on the board ${where}`)
    check(!occupied.has(f.move.toUpperCase()), `move ${f.move} is on a stone ${where}`)
    for (const vertex of block.pv)
      check(vertex === 'pass' || onBoard(vertex), `pv move "${vertex}" is not on the board ${where}`)
    check(block.pv[0] === f.move, `block ${index}: pv starts with ${block.pv[0]}, not its move ${f.move} ${where}`)
    check(isInteger(f.visits), `visits "${f.visits}" is not a count ${where}`)
    check(f.order === String(index), `block ${index} has order ${f.order} ${where}`)
    if (dialect === 'kata') {
      // Sabaki reads kata-* win rates as 0–1 floats; they must always show a decimal point.
      for (const key of ['winrate', 'prior']) {
        const v = f[key]
        check(v.includes('.') && isNumber(v) && Number(v) >= 0 && Number(v) <= 1,
          `${key} "${v}" is not a 0-1 decimal ${where}`)
      }
      check(f.lcb.includes('.') && isNumber(f.lcb), `lcb "${f.lcb}" is not a decimal ${where}`)
      if ('scoreLead' in f) check(isNumber(f.scoreLead), `scoreLead "${f.scoreLead}" is not a number ${where}`)
    } else {
      for (const key of ['winrate', 'prior'])
        check(isInteger(f[key]) && Number(f[key]) <= 10000, `${key} "${f[key]}" is not an integer 0-10000 ${where}`)
      check(/^-?\d+$/.test(f.lcb), `lcb "${f.lcb}" is not an integer ${where}`)
    }
  })
  return blocks
}

// Runs `<command> <color> 10` for `ms` milliseconds, collecting the streamed lines through the
// library's subscriber, then stops it the way Sabaki does, by sending `protocol_version`.
async function analyze(command, color, ms, dialect, occupied) {
  step = `${command} ${color}`
  const lines = [] // {line, beforeStop}
  let stopSent = false
  const analysis = controller.sendCommand({name: command, args: [color, '10']}, ({line, end}) => {
    if (!end) lines.push({line, beforeStop: !stopSent})
  })
  await sleep(ms)
  stopSent = true
  const stop = controller.sendCommand({name: 'protocol_version'})
  const response = await within(STOP_TIMEOUT_MS, `ending ${command} after protocol_version`, analysis)
  const version = await stop
  check(!response.error, `${command} failed: ${response.content}`)
  check(!version.error && version.content === '2', `protocol_version after ${command} answered "${version.content}"`)

  // The subscriber sees the `=` line first. It must be bare, as KataGo's is: Sabaki reads the
  // analysis line by line, and the `=` line is not an analysis line.
  check(lines.length > 0 && lines[0].line.trim() === '=', `${command} response starts with "${lines[0]?.line}", not "="`)
  const infoLines = lines.slice(1)
  for (const {line} of infoLines) checkInfoLine(line, dialect, occupied)
  // Lines must reach the client while the analysis runs (flushed per interval), not at the end.
  const streamed = infoLines.filter(l => l.beforeStop).length
  check(streamed >= 2, `only ${streamed} info line(s) arrived during ${ms} ms of ${command} (interval 10 cs)`)
  const best = parseInfoLine(infoLines[infoLines.length - 1].line)[0].fields
  console.log(`${command} ${color}: ${infoLines.length} lines (${streamed} before the stop); ` +
    `last line's best ${best.move} winrate ${best.winrate} visits ${best.visits}`)
}

// Stones on the board after `history` (a list of {name: 'play', args: [color, vertex]}); the
// positions used here have no captures.
function stonesOf(history) {
  return new Set(history.map(c => c.args[1].toUpperCase()).filter(v => v !== 'PASS'))
}

const play = (color, vertex) => ({name: 'play', args: [color, vertex]})

function checkGeneratedMove(command, answer, occupied) {
  const move = answer.toLowerCase() === 'pass' || answer.toLowerCase() === 'resign' ? answer.toLowerCase() : answer
  check(move === 'pass' || move === 'resign' || onBoard(move), `${command} answered "${answer}", not a vertex, pass or resign`)
  check(!occupied.has(move.toUpperCase()), `${command} chose ${move}, which is occupied`)
  return move
}

// ---------------------------------------------------------------------------------------------

async function main() {
  controller = new Controller(enginePath, engineArgs)
  const tracker = new ControllerStateTracker(controller)
  let inFlight = 0 // commands sent and not yet answered, seen when the latest one is sent
  controller.on('command-sent', ({command}) => {
    inFlight = Math.max(inFlight, controller.commands.length)
    remember(`> ${Command.toString(command)}`)
  })
  controller.on('response-received', ({response}) => {
    const text = `${response.error ? '?' : '='} ${response.content}`
    remember(`< ${text.length > 300 ? text.slice(0, 300) + '…' : text}`)
  })
  controller.on('stderr', ({content}) => engineStderr.push(content))
  controller.on('stopped', ({signal}) => {
    if (!quitting) fail(`the engine exited unexpectedly (${signal})`)
  })
  controller.start()
  controller.process.on('error', err => fail(`cannot run ${enginePath}: ${err.message}`))

  // 1. Attach: Sabaki sends these four at once, without waiting for answers.
  step = 'attach'
  const attach = ['name', 'version', 'protocol_version', 'list_commands']
  const answers = await Promise.all(attach.map(name => controller.sendCommand({name})))
  answers.forEach((a, i) => check(!a.error && a.content !== '', `${attach[i]} answered "${a.content}"`))
  check(answers[2].content === '2', `protocol_version answered "${answers[2].content}"`)
  const listed = answers[3].content.split('\n').map(x => x.trim())
  for (const name of ['kata-analyze', 'lz-analyze', 'kata-genmove_analyze', 'undo'])
    check(listed.includes(name), `list_commands does not list ${name}`)
  check(inFlight === 4, `expected the 4 attach commands in flight together, saw at most ${inFlight}`)
  console.log(`attached: ${answers[0].content} ${answers[1].content}, ${listed.length} commands`)

  // 2. Sync a position the way Sabaki does, letting the library choose the commands: first a
  // full replay (komi, boardsize, then clear_board and every play at once), then a change of
  // the last two moves (two undos and two plays at once). sync() throws if any answer is an error.
  step = 'sync: full replay'
  const opening = [play('B', 'E5'), play('W', 'E3'), play('B', 'C4'), play('W', 'G5')]
  const first = [...opening, play('B', 'G3'), play('W', 'C6')]
  inFlight = 0
  await tracker.sync({komi: 7, boardsize: [SIZE, SIZE], history: first})
  check(inFlight === first.length + 1, `full replay: expected ${first.length + 1} commands in flight, saw ${inFlight}`)

  step = 'sync: undo and replay'
  const second = [...opening, play('B', 'D7'), play('W', 'F7')]
  const sent = []
  const record = ({command}) => sent.push(Command.toString(command))
  controller.on('command-sent', record)
  inFlight = 0
  await tracker.sync({komi: 7, boardsize: [SIZE, SIZE], history: second})
  controller.off('command-sent', record)
  check(sent.join(', ') === 'undo, undo, play B D7, play W F7', `second sync sent: ${sent.join(', ')}`)
  check(inFlight === 4, `second sync: expected 4 commands in flight, saw ${inFlight}`)
  console.log(`synced: ${second.map(c => c.args.join(' ')).join(', ')} (after undoing G3, C6)`)
  const occupied = stonesOf(second)

  // 3–5. Analysis in both dialects, Black to move in this position; White too, for lz.
  await analyze('kata-analyze', 'B', 1000, 'kata', occupied)
  await analyze('lz-analyze', 'W', 600, 'lz', occupied)

  // 6. Moves: plain genmove, a reply synced like a user's move, genmove again, then the
  // analysing genmove Sabaki uses whenever the engine lists it.
  // (The tracker adds each generated move to its history, so read the stones before asking.)
  step = 'genmove B'
  let stones = stonesOf(tracker.state.history)
  let reply = await controller.sendCommand({name: 'genmove', args: ['B']})
  check(!reply.error, `genmove B failed: ${reply.content}`)
  checkGeneratedMove('genmove B', reply.content, stones)
  console.log(`genmove B: ${reply.content}`)

  step = 'sync: a user move'
  const taken = stonesOf(tracker.state.history)
  const userMove = ['B8', 'H2', 'B2', 'H8'].find(v => !taken.has(v))
  await tracker.sync({history: [...tracker.state.history, play('W', userMove)]})

  step = 'genmove B (second)'
  stones = stonesOf(tracker.state.history)
  reply = await controller.sendCommand({name: 'genmove', args: ['B']})
  check(!reply.error, `genmove B failed: ${reply.content}`)
  checkGeneratedMove('genmove B', reply.content, stones)
  console.log(`play W ${userMove}, genmove B: ${reply.content}`)

  step = 'kata-genmove_analyze W 10'
  stones = stonesOf(tracker.state.history)
  const lines = []
  const response = await controller.sendCommand({name: 'kata-genmove_analyze', args: ['W', '10']},
    ({line, end}) => { if (!end) lines.push(line) })
  check(!response.error, `kata-genmove_analyze failed: ${response.content}`)
  check(lines[0]?.trim() === '=', `kata-genmove_analyze response starts with "${lines[0]}", not "="`)
  const last = lines[lines.length - 1] ?? ''
  const playLine = last.trim().match(/^play\s+(\S+)$/)
  check(playLine != null, `kata-genmove_analyze's last line is "${last}", not "play <move>"`)
  const body = lines.slice(1, -1)
  check(body.length > 0, 'kata-genmove_analyze printed no info line before its play line')
  for (const line of body) checkInfoLine(line, 'kata', stones)
  const move = checkGeneratedMove('kata-genmove_analyze', playLine[1], stones)
  console.log(`kata-genmove_analyze W: ${body.length} info lines, ${last.trim()}`)
  // The move must now be on the engine's board: playing there again is refused.
  if (move !== 'pass' && move !== 'resign') {
    step = 'checking the analysed move was played'
    const again = await controller.sendCommand(play('B', move))
    check(again.error, `play B ${move} was accepted after the engine played W ${move} there`)
  }

  // 7. Detach as Sabaki does: `quit`, then the process must exit on its own, with status 0.
  step = 'quit'
  quitting = true
  const exited = new Promise(resolve => controller.process.once('exit', (code, signal) => resolve({code, signal})))
  const bye = await controller.sendCommand({name: 'quit'})
  check(!bye.error, `quit answered "? ${bye.content}"`)
  const {code, signal} = await within(QUIT_TIMEOUT_MS, 'exiting after quit', exited)
  check(code === 0, `the engine exited with code ${code}, signal ${signal}`)
  console.log('OK: the Sabaki session passed')
  process.exit(0)
}

main().catch(err => fail(`exception: ${err.stack ?? err}`))
