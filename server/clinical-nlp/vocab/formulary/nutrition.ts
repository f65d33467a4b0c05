/** Vitamins, minerals, iron, calcium and supplements. Row format: ../formulary.ts. */
export const NUTRITION = `
thiamine||vitamin b1,vit b1|tablet,injection|50,75,100,100mg/ml|
vitamin b complex||b complex,vit b complex,b complex vitamins,vitamin b complex with zinc|capsule,tablet,syrup,injection||becosules,becosules z,becozinc,neurobion,neurobion forte,polybion
multivitamin||multivitamins,multivitamin and minerals,multivitamins and minerals,multi vitamin|capsule,tablet,syrup,drops||zincovit,supradyn,revital,revital h,a to z,centrum,~one a day
prenatal multivitamin||prenatal vitamins,prenatal vitamin|tablet,capsule||prenate,vitafol
cholecalciferol||vitamin d3,vitamin d,vit d3,vit d,d3|sachet,capsule,tablet,drops,granules,injection|400IU,800IU,1000IU,2000IU,5000IU,50000IU,60000IU,400IU/ml,800IU/ml,60000IU/g,600000IU/ml|calcirol,uprise,uprise d3,uprise d3 60k,d rise,tayo,tayo 60k,arachitol,d3 must,arachitol nano
ergocalciferol||vitamin d2|capsule|50000IU|drisdol
calcium carbonate||calcium|tablet,chewable tablet|500,600,1250|tums
calcium carbonate + vitamin d3||calcium and vitamin d3,calcium with vitamin d,calcium and vitamin d,calcium vitamin d3,calcium d3|tablet,chewable tablet,suspension||shelcal,shelcal 500,shelcal hd,cipcal,cipcal 500,os cal,oscal,caltrate,caltrate 600 d
calcium citrate|||tablet|200,250,500|citracal
calcium citrate + vitamin d3|||tablet||citracal d
calcitriol|||capsule,injection|0.25mcg,0.5mcg,1mcg/ml|rocaltrol,calcijex
alfacalcidol|||capsule,drops|0.25mcg,0.5mcg,1mcg|one alpha,alphadol
ferrous sulphate|ferrous sulfate|iron tablet,iron tablets,iron drops,ferrous sulphate drops|tablet,drops,syrup|150,200,325,15mg/ml,75mg/ml|fersolate,feosol,slow fe,fer in sol
ferrous sulphate + folic acid||iron and folic acid,iron folic acid,ifa,iron + folic acid,iron folic acid tablets|tablet,syrup||
ferrous ascorbate|||tablet,syrup|100|
ferrous ascorbate + folic acid|||tablet,syrup||orofer xt
ferrous fumarate|||tablet|200,324,325|ferretts
ferrous fumarate + folic acid|||tablet,capsule||livogen
ferrous bisglycinate|||tablet|60|
iron polymaltose|||tablet,syrup,drops|100,50mg/5ml|
carbonyl iron|||tablet,suspension|100|
ferric carboxymaltose|||injection|500,1000,50mg/ml|ferinject,encicarb,injectafer
iron sucrose|||injection|100,20mg/ml|orofer s,venofer
folic acid||folate|tablet|0.4,1,5|folvite,folitab
methylcobalamin||mecobalamin|tablet,injection|500mcg,1500mcg,1000mcg/ml|methycobal,nurokind
cyanocobalamin||vitamin b12,vit b12,b12|injection,tablet,nasal spray|1000mcg,500mcg/spray,1000mcg/ml|nascobal
ascorbic acid||vitamin c,vit c|tablet,chewable tablet|500,1000|limcee,celin
vitamin e||tocopherol,tocopheryl acetate|capsule|200,400|evion
vitamin a||retinol,vitamin a palmitate|capsule,solution|100000IU,200000IU,25000IU|
phytonadione||vitamin k,vitamin k1,phytomenadione|injection,tablet|1,5,10,1mg/0.5ml,10mg/ml|
calcium gluconate|||injection,tablet|10%|
zinc gluconate|||tablet,lozenge|10,50|
coenzyme q10||coq10,ubiquinone|capsule|30,100|
l carnitine||levocarnitine|tablet|500|
`;
