<?php
// Composer's own answer for each class name, no engine code: the project's vendor/autoload.php (as
// `composer dump-autoload` wrote it from composer.json) gives its ClassLoader; for every name read as JSON on stdin
// it prints {"<name>": "<path>" | null}, the file ClassLoader::findFile returns relative to the root (argv[1]), null
// when it finds none or one outside the project.
$root = realpath($argv[1]);
$loader = require $root . '/vendor/autoload.php';
$out = [];
foreach (json_decode(stream_get_contents(STDIN), true) as $name) {
    $file = $loader->findFile($name);
    $real = $file === false ? false : realpath($file);
    $out[$name] = $real !== false && str_starts_with($real, $root . '/') && !str_starts_with($real, $root . '/vendor/') ? substr($real, strlen($root) + 1) : null;
}
echo json_encode($out, JSON_UNESCAPED_SLASHES);
