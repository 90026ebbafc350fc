;;; harness.el --- drive Emacs 28 + eglot against `memo serve' in batch mode  -*- lexical-binding: t -*-
;;
;; Loaded by Tests/e2e/editors.py as
;;   emacs -Q --batch -l harness.el -l scenarios.el --eval '(memo-test-main "NAME")'
;; with MEMO_TEST_BINARY, MEMO_TEST_STORE, MEMO_TEST_OUT (a JSON file the scenario's
;; observations go to) and MEMO_TEST_EVENTS (where eglot's events buffer, the JSON-RPC
;; traffic, is written) in the environment.  Scenarios record what the editor shows; the
;; Python tests make the assertions.

;; -Q leaves out Debian's site start-up, which is what activates the elpa-* packages
;; (eglot 1.9 and the newer project/xref/seq it needs): do that here.
(setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
(package-initialize)
(require 'cl-lib)
(require 'json)
(require 'subr-x)
(require 'eglot)
(require 'flymake)
(require 'xref)
(require 'eldoc)

(defvar memo-test-binary (getenv "MEMO_TEST_BINARY"))
(defvar memo-test-store (getenv "MEMO_TEST_STORE"))
(defvar memo-test-out (getenv "MEMO_TEST_OUT"))
(defvar memo-test-events (getenv "MEMO_TEST_EVENTS"))
(defvar memo-test-results nil "Alist of (KEY . VALUE) the scenario observed.")

;; Modes: a stand-in for markdown-mode when it is not installed (the language id eglot
;; sends is the mode's name without -mode, so "markdown"), and one for memo command files.
(unless (fboundp 'markdown-mode)
  (define-derived-mode markdown-mode text-mode "Markdown"))
(define-derived-mode memo-mode text-mode "Memo")
(add-to-list 'auto-mode-alist '("\\.md\\'" . markdown-mode))
(add-to-list 'auto-mode-alist '("\\.memo\\'" . memo-mode))

;; One entry, so one server, for each mode: eglot 1.9 sends one language id per server.
(setq eglot-server-programs
      (mapcar (lambda (mode) (cons mode (list memo-test-binary "--store" memo-test-store "serve")))
              '(markdown-mode memo-mode text-mode css-mode)))
;; The memos' own files live under $XDG_CACHE_HOME, outside any project: this is the
;; setting that lets eglot manage a file that go-to-definition opened there.
(setq eglot-extend-to-xref t)
(setq eglot-autoreconnect nil)
(setq make-backup-files nil auto-save-default nil create-lockfiles nil)
(setq require-final-newline nil)

;;; Recording

(defun memo-test-record (key value)
  "Records VALUE (a string, number, t/:json-false, vector or alist) under KEY."
  (setq memo-test-results (cons (cons key value) (assoc-delete-all key memo-test-results)))
  value)

(defun memo-test-note (format-string &rest arguments)
  "Appends a line to the scenario's notes (shown when a test fails)."
  (let ((line (apply #'format format-string arguments)))
    (message "memo-test: %s" line)
    (memo-test-record "notes" (vconcat (cdr (assoc "notes" memo-test-results)) (list line)))))

(defun memo-test-buffer-text (&optional buffer)
  (with-current-buffer (or buffer (current-buffer))
    (buffer-substring-no-properties (point-min) (point-max))))

(defun memo-test-write-results ()
  (with-temp-file memo-test-out
    (insert (json-encode (or memo-test-results '(("empty" . t)))))))

(defun memo-test-dump-events ()
  "Writes every eglot events buffer (the JSON-RPC traffic) and *Messages* to MEMO_TEST_EVENTS."
  (with-temp-file memo-test-events
    (dolist (buffer (buffer-list))
      (when (string-match-p "\\*EGLOT.*\\(events\\|stderr\\)\\*\\|\\*Messages\\*" (buffer-name buffer))
        (insert "===== " (buffer-name buffer) " =====\n"
                (with-current-buffer buffer (buffer-substring-no-properties (point-min) (point-max)))
                "\n")))))

(defun memo-test-main (scenario)
  "Runs memo-scenario-SCENARIO, then writes the results and the traffic and exits."
  (let ((status 0))
    ;; A scenario that hangs still reports, with its traffic, before the test's timeout.
    (run-at-time 60 nil (lambda ()
                          (memo-test-record "error" "the scenario did not end within 60 s")
                          (memo-test-write-results)
                          (memo-test-dump-events)
                          (kill-emacs 3)))
    (condition-case err
        (funcall (intern (concat "memo-scenario-" scenario)))
      (error (memo-test-record "error" (format "%S" err))
             (setq status 2)))
    (memo-test-write-results)
    (memo-test-dump-events)
    (dolist (server (memo-test-servers))
      (ignore-errors (eglot-shutdown server nil 3 t)))
    (memo-test-dump-events)
    (kill-emacs status)))

(defun memo-test-servers ()
  (let (servers)
    (maphash (lambda (_project list) (setq servers (append list servers))) eglot--servers-by-project)
    servers))

;;; Waiting (every wait is bounded)

(defun memo-test-wait (predicate &optional seconds)
  "Lets Emacs read the server's messages until PREDICATE is true or SECONDS (5) pass.
Returns PREDICATE's last value."
  (let ((deadline (+ (float-time) (or seconds 5)))
        value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.05))  ; not a wait: the poll interval; output ends it early
    value))

(defun memo-test-settle ()
  "Waits until the server has handled everything sent to it, and eglot everything the
server sent before: the answer to a request sent now comes after all of it."
  (memo-test-lsp-request :memo/tags (make-hash-table)))

(defun memo-test-idle ()
  "What Emacs does when the user stops typing: runs the idle timers once (eglot sends its
pending didChange from one, flymake starts a check from another).  Batch Emacs is never
idle on its own."
  (dolist (timer (copy-sequence timer-idle-list))
    (ignore-errors (timer-event-handler timer)))
  (accept-process-output nil 0))

(defun memo-test-open (file)
  "Visits FILE and connects eglot the way `eglot-ensure' does: from the post-command hook
of the command that visited it.  Returns the buffer, managed by eglot."
  (let ((buffer (find-file-noselect file)))
    ;; Shown in the window first, as visiting a file does, so that flymake starts at once.
    (switch-to-buffer buffer)
    (with-current-buffer buffer
      (unless eglot--managed-mode
        (eglot-ensure)
        (run-hooks 'post-command-hook))
      (unless (memo-test-wait (lambda () (and eglot--managed-mode (eglot-current-server))) 10)
        (error "eglot did not start for %s" file)))
    (set-buffer buffer)
    buffer))

(defun memo-test-goto (line column)
  "Moves to LINE (1-based) and COLUMN (0-based, in characters)."
  (goto-char (point-min))
  (forward-line (1- line))
  (forward-char column))

(defun memo-test-search (string &optional offset)
  "Moves point to the start of the first STRING in the buffer, plus OFFSET characters."
  (goto-char (point-min))
  (unless (search-forward string nil t) (error "no %S in the buffer" string))
  (goto-char (+ (match-beginning 0) (or offset 0))))

;;; What the editor shows

(defun memo-test-flymake (&optional seconds predicate)
  "The current buffer's flymake diagnostics, as a vector of alists, once PREDICATE (of that
vector; default: non-empty) holds or SECONDS pass."
  (let ((predicate (or predicate (lambda (diagnostics) (> (length diagnostics) 0))))
        diagnostics)
    (memo-test-wait
     (lambda ()
       (setq diagnostics
             (vconcat
              (mapcar (lambda (d)
                        `(("line" . ,(line-number-at-pos (flymake-diagnostic-beg d)))
                          ("begin" . ,(save-excursion (goto-char (flymake-diagnostic-beg d)) (current-column)))
                          ("end" . ,(save-excursion (goto-char (flymake-diagnostic-end d)) (current-column)))
                          ("text" . ,(buffer-substring-no-properties (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))
                          ("severity" . ,(pcase (flymake-diagnostic-type d)
                                            ('eglot-error "error") ('eglot-warning "warning")
                                            ('eglot-note "note") (type (symbol-name type))))
                          ("message" . ,(flymake-diagnostic-text d))))
                      (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))))
       (funcall predicate diagnostics))
     (or seconds 5))
    diagnostics))

(defun memo-test-eldoc ()
  "The documentation eldoc displays at point (eglot's hover), through eldoc's own
display hook; nil if none came."
  (let* ((shown nil)
         (eldoc-display-functions (list (lambda (docs _interactive)
                                          (setq shown (mapconcat #'car docs "\n"))))))
    (eldoc-print-current-symbol-info t)
    (memo-test-wait (lambda () shown) 5)
    shown))

(defun memo-test-lsp-request (method params)
  "A raw request through eglot's connection, for what eglot 1.9 has no command for."
  (jsonrpc-request (eglot-current-server) method params :timeout 5))

(defun memo-test-lsp-range-text (range)
  "The buffer text an LSP RANGE (a plist, as jsonrpc decodes it) covers."
  (let ((region (eglot--range-region range)))
    (buffer-substring-no-properties (car region) (cdr region))))

;;; Completion as a completion UI does it

(defvar memo-test-candidates nil "The candidates the last completion offered.")
(defvar memo-test-completion-region nil "The text the last completion was to replace.")

(defun memo-test-candidate-label (candidate)
  "The label of the completion item CANDIDATE stands for (what a completion UI shows as its
name; the candidate string itself is eglot's key for matching), else CANDIDATE."
  (let ((item (get-text-property 0 'eglot--lsp-item candidate)))
    (or (and item (plist-get item :label)) (substring-no-properties candidate))))

(defun memo-test-complete (choose)
  "Runs `completion-at-point' with a completion UI that records the labels of the
candidates it is offered and picks the first one CHOOSE (a predicate on the label) accepts,
as corfu does: the candidate replaces the completion
region, then the table's :exit-function runs with status `finished'.  Returns the
chosen candidate or nil."
  (setq memo-test-candidates nil memo-test-completion-region nil)
  (let* ((chosen nil)
         (completion-in-region-function
          (lambda (start end collection predicate)
            (let* ((input (buffer-substring-no-properties start end))
                   (all (completion-all-completions input collection predicate (- (point) start)))
                   (last (last all)))
              (when last (setcdr last nil))
              (setq memo-test-candidates (mapcar #'memo-test-candidate-label all))
              (setq memo-test-completion-region (buffer-substring-no-properties start end))
              (setq chosen (cl-find-if (lambda (candidate) (funcall choose (memo-test-candidate-label candidate))) all))
              (when chosen
                ;; as corfu does: a copy, since Emacs 28's completion--replace strips the
                ;; text properties (eglot's item) off the string it is given
                (completion--replace start end (concat chosen))
                (when-let ((exit (plist-get completion-extra-properties :exit-function)))
                  (funcall exit chosen 'finished)))
              t))))
    (completion-at-point)
    (and chosen (substring-no-properties chosen))))

;;; Code actions as the user picks them

(defvar memo-test-while-confirming nil
  "A function run while eglot's question about a server edit is open, before it is
answered: what Emacs does meanwhile (a real question reads events, and process output
with them).")

(defun memo-test-code-action (begin end title)
  "Selects BEGIN..END, runs `eglot-code-actions' as M-x would, and answers its
minibuffer question with TITLE.  Records the titles offered under \"offered\"; a server
edit that eglot asks to confirm is confirmed (and recorded under \"confirmations\"),
after `memo-test-while-confirming' if set."
  (goto-char begin)
  (set-mark end)
  (activate-mark)
  (let* ((last-nonmenu-event ?\r)      ; a keyboard command, so eglot asks in the minibuffer
         (completing-read-function
          (lambda (_prompt collection &rest _)
            (memo-test-record "offered" (vconcat (mapcar (lambda (item) (if (consp item) (car item) item)) collection)))
            title)))
    (cl-letf (((symbol-function 'y-or-n-p)
               (lambda (prompt)
                 (when memo-test-while-confirming (funcall memo-test-while-confirming))
                 (memo-test-record "confirmations"
                                   (vconcat (cdr (assoc "confirmations" memo-test-results)) (list prompt)))
                 t)))
      (call-interactively #'eglot-code-actions)
      ;; the server's workspace/applyEdit request may come after executeCommand's answer
      (memo-test-settle))))

(provide 'memo-test-harness)
