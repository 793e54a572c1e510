/**
 * @file polyc's C grammar: tree-sitter-c's plus the `multifor` statement.
 * tree-sitter-c comes from npm, pinned to 0.24.1 in package.json (its
 * grammar.js is byte for byte that of tree-sitter-c 0.24.2, which is not on
 * npm). See README.md for the node names and fields; they are a contract
 * with src/frontend.
 * @license MIT
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// tree-sitter-c's grammar, from the npm package pinned in package.json
// (`npm ci` installs it into node_modules/; grammar/generate does that).
const C = require('tree-sitter-c/grammar');

const commaSep1 = C.commaSep1;

module.exports = grammar(C, {
  name: 'polyc_c',

  conflicts: ($, original) => original.concat([
  ]),

  rules: {
    // A multifor may appear wherever a C statement may.
    _non_case_statement: ($, original) => choice(original, $.multifor_statement),

    // And among the statements tree-sitter-c accepts outside functions
    // (which it allows so that fragments parse).
    _top_level_statement: ($, original) => choice(original, $.multifor_statement),

    // multifor (inits; conditions; updates; grains; offsets) body
    multifor_statement: $ => seq(
      'multifor',
      '(',
      field('header', $.multifor_header),
      ')',
      field('body', choice($.multifor_statement, $.multifor_body)),
    ),

    multifor_header: $ => seq(
      field('inits', $.multifor_group),
      ';',
      field('conditions', $.multifor_group),
      ';',
      field('updates', $.multifor_group),
      ';',
      field('grains', $.multifor_group),
      ';',
      field('offsets', $.multifor_group),
    ),

    // Every group has the same shape, whatever its role, so that groups of
    // different lengths still parse; src/frontend checks the lengths.
    multifor_group: $ => commaSep1($.expression),

    multifor_body: $ => seq(
      '{',
      repeat(choice($.multifor_item, $.multifor_statement)),
      '}',
    ),

    // `0 : stmt` or `[2, 3] : stmt`
    multifor_item: $ => seq(
      field('prefix', choice($.number_literal, $.multifor_prefix_list)),
      ':',
      field('statement', $.statement),
    ),

    multifor_prefix_list: $ => seq('[', commaSep1($.number_literal), ']'),

    // `[i3, i4]`, as in `x[[i3, i4]]` or `MImage([i3, i4], [j3, j4])`.
    // Below C's rules, so that `{ [0][1] = 2 }` stays a designated
    // initialiser (an index list can't be a designator's start anyway:
    // `[0] = ...` is not an assignment, an index list is no lvalue).
    multifor_index_list: $ => prec(-1, seq('[', commaSep1($.expression), ']')),

    expression: ($, original) => choice(original, $.multifor_index_list),
  },
});
