;;; stable_links.el --- stable memo links in Emacs 28 + eglot 1.9  -*- lexical-binding: t -*-
;;
;; Loaded after harness.el and scenarios.el (Tests/e2e/test_editor_stable_links.py passes it
;; as MEMO_EXTRA_EL).  Completion uses scenarios.el's `memo-scenario-completion'.

(defun memo-scenario-stable-links-action ()
  "Runs the code action \"Make memo links stable\" on the whole of stable.md."
  (with-current-buffer (memo-test-open (memo-test-file "stable.md"))
    (memo-test-code-action (point-min) (point-max) "Make memo links stable")
    (memo-test-record "after" (memo-test-buffer-text))
    (memo-test-record "modified" (if (buffer-modified-p) t :json-false))))

(defvar memo-test-stable-arrived 0 "Messages eglot has read from the server.")

(defun memo-test-stable-count-message (&rest _)
  (setq memo-test-stable-arrived (1+ memo-test-stable-arrived)))

(defun memo-test-stable-read-while-asked ()
  "What a person's y/n question does while it is open: Emacs reads what the server sends.
Waits until a message arrives or half a second passes (a prompt that is answered), and
records how many arrived while the question was open."
  (let ((before memo-test-stable-arrived))
    (memo-test-wait (lambda () (> memo-test-stable-arrived before)) 0.5)
    (memo-test-record "arrived while asked"
                      (vconcat (cdr (assoc "arrived while asked" memo-test-results))
                               (list (- memo-test-stable-arrived before))))))

(defun memo-scenario-stable-moves ()
  "Moves each line of moves.md to a memo, one after another, as a user picking \"Move
selection to a memo\" and answering eglot's question; records each move's duration."
  (advice-add 'jsonrpc-connection-receive :before #'memo-test-stable-count-message)
  (with-current-buffer (memo-test-open (memo-test-file "moves.md"))
    (memo-test-flymake 5 #'always)
    (let ((memo-test-while-confirming #'memo-test-stable-read-while-asked))
      (dotimes (n 10)
        (memo-test-search (format "move %d." (1+ n)))
        (let ((start (float-time)))
          (memo-test-code-action (point) (line-end-position) "Move selection to a memo")
          (memo-test-record "seconds"
                            (vconcat (cdr (assoc "seconds" memo-test-results))
                                     (list (- (float-time) start)))))))
    (memo-test-record "after" (memo-test-buffer-text))))

(provide 'memo-test-stable-links)
